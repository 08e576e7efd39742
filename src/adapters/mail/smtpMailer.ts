import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from './mailer.ts';

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
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      // A stable Message-ID lets receiving servers drop a duplicate of a retried send.
      messageId: `<${mail.id}@topmark.mail>`,
    });
  }
}
