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
      await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        // A stable Message-ID lets receiving servers drop a duplicate of a retried send.
        messageId: `<${mail.id}@topmark.mail>`,
      });
    } catch (error) {
      throw deliveryError(mail.id, error);
    }
  }
}
