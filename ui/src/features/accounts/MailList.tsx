import type { DevMail, DevMailAttachment } from '@shared/accounts/accountApi.ts';
import { CalendarDays, Paperclip } from 'lucide-react';
import { describeType } from './mailFormat.ts';

const sentFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

function formatSent(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : sentFormat.format(date);
}

/** A mail's files: name, type (and a calendar file's method), and the text, folded away until opened. */
function Attachments({ mailId, attachments }: { mailId: string; attachments: readonly DevMailAttachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <section aria-labelledby={`mail-${mailId}-files`} className="mt-3">
      <h3 id={`mail-${mailId}-files`} className="flex items-center gap-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
        <Paperclip className="size-3.5" aria-hidden="true" />
        Attachments ({attachments.length})
      </h3>
      <ul className="mt-2 space-y-2">
        {attachments.map((file, i) => {
          const { type, method } = describeType(file.contentType);
          const calendar = type.toLowerCase() === 'text/calendar';
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a mail's files keep their order and may share a name
            <li key={i} className="rounded-md border border-border bg-white p-2">
              <details>
                <summary className="flex cursor-pointer flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                  {calendar ? (
                    <CalendarDays className="size-4 text-brand-700" aria-hidden="true" />
                  ) : (
                    <Paperclip className="size-4 text-slate-500" aria-hidden="true" />
                  )}
                  <span className="font-medium break-all text-slate-900">{file.filename}</span>
                  <span className="font-mono text-xs break-all text-slate-600">{file.contentType}</span>
                  {method ? <span className="rounded bg-brand-50 px-1.5 py-0.5 text-xs font-semibold text-brand-800">{method}</span> : null}
                </summary>
                {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
                <section aria-label={file.filename} tabIndex={0} className="mt-2 max-h-64 overflow-auto rounded-md bg-slate-50 p-2">
                  <pre className="font-mono text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]">{file.content}</pre>
                </section>
              </details>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * Mails kept in the outbox, as given (newest first): one card per mail on narrow screens, a table
 * on wider ones. The dev mailbox page and the console's Mailbox tab both show it.
 */
export function MailList({ mails }: { mails: readonly DevMail[] }) {
  return (
    <>
      {/* Phones and narrow windows: one card per mail, the text wrapped to the width. */}
      <ul className="space-y-4 md:hidden" aria-label="Captured e-mails, newest first">
        {mails.map((mail) => (
          <li key={mail.id} className="rounded-lg border border-border bg-white p-4 shadow-sm">
            <article aria-labelledby={`mail-${mail.id}-subject`}>
              <h2 id={`mail-${mail.id}-subject`} className="text-base font-semibold break-words text-slate-900">
                {mail.subject}
              </h2>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-slate-500">To</dt>
                <dd className="min-w-0 break-all text-slate-900">{mail.to}</dd>
                <dt className="text-slate-500">Sent</dt>
                <dd className="text-slate-700">
                  <time dateTime={mail.sentAt}>{formatSent(mail.sentAt)}</time>
                </dd>
              </dl>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
              <section aria-label="Mail text" tabIndex={0} className="mt-3 max-h-80 overflow-y-auto rounded-md bg-slate-50 p-3">
                <pre className="font-mono text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]">{mail.text}</pre>
              </section>
              <Attachments mailId={`${mail.id}-card`} attachments={mail.attachments} />
            </article>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-border md:block">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Captured e-mails, newest first</caption>
          <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                To
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Subject
              </th>
              <th scope="col" className="px-4 py-3 font-semibold whitespace-nowrap">
                Sent
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Text
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {mails.map((mail) => (
              <tr key={mail.id} className="align-top">
                <td className="px-4 py-3 break-all text-slate-900">{mail.to}</td>
                <td className="px-4 py-3 font-medium text-slate-900">{mail.subject}</td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                  <time dateTime={mail.sentAt}>{formatSent(mail.sentAt)}</time>
                </td>
                <td className="px-4 py-3">
                  {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
                  <section aria-label="Mail text" tabIndex={0} className="max-h-64 max-w-xl overflow-auto rounded-md bg-slate-50 p-3">
                    <pre className="font-mono text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]">{mail.text}</pre>
                  </section>
                  <div className="max-w-xl">
                    <Attachments mailId={`${mail.id}-row`} attachments={mail.attachments} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
