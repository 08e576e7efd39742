import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from './mailer.ts';

const ADDRESS = /[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g;

/**
 * A failed delivery as the job queue keeps it (pg-boss stores a failed job's error for days, and
 * copies it to the dead-letter queue): the mail id and the SMTP status, with every e-mail address
 * in the server's answer replaced, so no recipient outlives their erasure in the job tables.
 */
export class SmtpDeliveryError extends Error {
  override name = 'SmtpDeliveryError';
}

export function deliveryError(mailId: string, error: unknown): SmtpDeliveryError {
  const e = (error ?? {}) as { message?: unknown; code?: unknown; responseCode?: unknown };
  const status = [e.code, e.responseCode].filter((v) => typeof v === 'string' || typeof v === 'number').join(' ');
  const message = typeof e.message === 'string' ? e.message.replace(ADDRESS, '<address>').slice(0, 300) : 'unknown error';
  return new SmtpDeliveryError(`SMTP delivery of mail ${mailId} failed${status ? ` (${status})` : ''}: ${message}`);
}

const CALENDAR = /^text\/calendar\s*(;|$)/i;
const METHOD = /;\s*method\s*=\s*"?([A-Za-z-]+)"?/i;

/**
 * The message nodemailer sends for a mail. A calendar file that names its iTIP method goes as
 * nodemailer's `icalEvent`: a `text/calendar; method=…` alternative beside the text (what Gmail,
 * Outlook and Apple Mail read as an invitation, an update or a cancellation) and the same file
 * attached; every other file is attached as it is.
 */
export function smtpMessageOf(mail: OutgoingMail, from: string): nodemailer.SendMailOptions {
  const files = mail.attachments ?? [];
  const invitation = files.find((f) => CALENDAR.test(f.contentType) && METHOD.test(f.contentType));
  const method = invitation ? METHOD.exec(invitation.contentType)?.[1]?.toUpperCase() : undefined;
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    // A stable Message-ID lets receiving servers drop a duplicate of a retried send.
    messageId: `<${mail.id}@topmark.mail>`,
    ...(invitation && method ? { icalEvent: { filename: invitation.filename, method, content: invitation.content } } : {}),
    attachments: files
      .filter((f) => f !== invitation)
      .map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content })),
  };
}

/** Real delivery through SMTP_URL (e.g. smtps://user:pass@smtp.example.com:465). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: nodemailer.Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: OutgoingMail): Promise<void> {
    try {
      await this.transport.sendMail(smtpMessageOf(mail, this.from));
    } catch (error) {
      throw deliveryError(mail.id, error);
    }
  }
}
