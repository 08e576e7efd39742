import { listOutbox } from '../../src/adapters/mail/outboxMailer.ts';
import type { System } from '../../src/system.ts';
import { type CommandResult, count, table, time } from './output.ts';

/**
 * The dev mailbox: mail the OutboxMailer kept instead of sending, newest first. `--json` gives each
 * mail whole, its files too (name, type, text: a session notice's iCalendar file).
 */
export async function listMail(system: System, options: { to?: string; limit: number }): Promise<CommandResult> {
  const mails = await listOutbox(system.sql, { to: options.to, limit: options.limit });
  return {
    data: mails,
    text: () => {
      const lines: string[] = [];
      if (system.mailer.kind !== 'outbox') lines.push('SMTP_URL is set: new mail is sent by SMTP, the outbox only holds older mail.', '');
      if (mails.length === 0) {
        lines.push(options.to ? `No mail to ${options.to} in the outbox.` : 'The outbox is empty.');
        return lines.join('\n');
      }
      lines.push(
        table(
          [
            { header: 'SENT', value: (m) => time(m.sentAt) },
            { header: 'TO', value: (m) => m.to, max: 40 },
            { header: 'SUBJECT', value: (m) => m.subject, max: 50 },
            { header: 'TEXT', value: (m) => m.text, max: 70 },
            { header: 'FILES', value: (m) => m.attachments.map((f) => f.filename).join(', '), max: 40 },
          ],
          mails,
        ),
        '',
        `${count(mails.length)} mail${mails.length === 1 ? '' : 's'}${mails.length >= options.limit ? ` (limit ${options.limit} reached: use --limit for more)` : ''}`,
      );
      return lines.join('\n');
    },
  };
}
