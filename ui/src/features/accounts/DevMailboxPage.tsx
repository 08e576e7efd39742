import { useQuery } from '@tanstack/react-query';
import { CircleAlert, Inbox, Loader2, RotateCw } from 'lucide-react';
import { readApiError } from '../../app/auth/apiErrors.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { accountsApi } from './api.ts';

const sentFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

function formatSent(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : sentFormat.format(date);
}

/**
 * /dev/mailbox: the mails the outbox mailer captured instead of sending (development and tests
 * without SMTP), newest first.
 */
export function DevMailboxPage() {
  useDocumentTitle('Dev Mailbox');
  const { data, isPending, isError, error, refetch, isFetching } = useQuery({
    queryKey: accountsApi.devMailboxKey,
    queryFn: accountsApi.devMailbox,
  });
  const mails = [...(data?.mails ?? [])].sort((a, b) => b.sentAt.localeCompare(a.sentAt));
  const failure = isError ? readApiError(error) : null;

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900">
            <Inbox className="size-6 text-brand-700" aria-hidden="true" />
            Dev mailbox
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            E-mails this server would have sent. Only available when no SMTP server is configured.
          </p>
        </div>
        <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
          <RotateCw className={isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
          {isFetching ? 'Refreshing...' : 'Refresh'}
        </Button>
      </div>

      <div className="mt-8">
        {isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
            Loading mail...
          </p>
        ) : failure ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertTitle>
              {failure.kind === 'http' && failure.status === 404 ? 'The dev mailbox is off' : 'Could not load the mailbox'}
            </AlertTitle>
            <AlertDescription>
              {failure.kind === 'http' && failure.status === 404
                ? 'This server sends real e-mail through SMTP, so there is nothing to show here.'
                : 'The server did not answer. Try Refresh.'}
            </AlertDescription>
          </Alert>
        ) : mails.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-slate-600">No mail has been sent yet.</p>
        ) : (
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
                    <pre className="mt-3 max-h-80 overflow-y-auto rounded-md bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]">
                      {mail.text}
                    </pre>
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
                        <pre className="max-h-64 max-w-xl overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]">
                          {mail.text}
                        </pre>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
