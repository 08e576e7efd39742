import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { describe, expect, it } from 'vitest';
import { deliveryError, SmtpDeliveryError, SmtpMailer, smtpMessageOf } from './smtpMailer.ts';

/** The message as it would go over the wire (RFC 5322 with its MIME parts). */
const wire = (message: ReturnType<typeof smtpMessageOf>) =>
  new Promise<string>((resolve, reject) =>
    new MailComposer(message).compile().build((error, raw) => (error ? reject(error) : resolve(raw.toString('utf8')))),
  );

describe('SMTP delivery errors', () => {
  it('keep the mail id and the SMTP status, never an address', () => {
    const rejected = Object.assign(
      new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <ottoline.vexbridge@example.com>: Recipient address rejected"),
      { code: 'EENVELOPE', responseCode: 550, rejected: ['ottoline.vexbridge@example.com'] },
    );
    const error = deliveryError('mail-1', rejected);
    expect(error).toBeInstanceOf(SmtpDeliveryError);
    expect(error.message).toBe(
      "SMTP delivery of mail mail-1 failed (EENVELOPE 550): Can't send mail - all recipients were rejected: 550 5.1.1 <<address>>: Recipient address rejected",
    );
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain('vexbridge');
    expect(deliveryError('mail-2', 'boom').message).toBe('SMTP delivery of mail mail-2 failed: unknown error');
  });

  it('are what send throws when the server cannot be reached', async () => {
    const mailer = new SmtpMailer('smtp://127.0.0.1:1', 'Topmark <noreply@topmark.ca>');
    const sending = mailer.send({ id: 'mail-3', to: 'ottoline.vexbridge@example.com', subject: 'Hi', text: 'Hello' });
    await expect(sending).rejects.toBeInstanceOf(SmtpDeliveryError);
    await expect(sending).rejects.not.toThrow(/vexbridge/);
  });
});

describe('SMTP messages', () => {
  it('send a calendar file as an invitation mail clients act on: a text/calendar alternative with its method, and the file attached', async () => {
    const ics = 'BEGIN:VCALENDAR\r\nMETHOD:CANCEL\r\nEND:VCALENDAR\r\n';
    const message = smtpMessageOf(
      {
        id: 'mail-7',
        to: 'pat@example.com',
        subject: 'Session cancelled',
        text: 'Hi Pat',
        attachments: [
          { filename: 'topmark-session-cancelled.ics', contentType: 'text/calendar; charset=utf-8; method=CANCEL', content: ics },
          { filename: 'notes.txt', contentType: 'text/plain', content: 'notes' },
        ],
      },
      'Topmark <no-reply@topmark.example>',
    );
    expect(message.icalEvent).toEqual({ filename: 'topmark-session-cancelled.ics', method: 'CANCEL', content: ics });
    expect(message.attachments).toEqual([{ filename: 'notes.txt', contentType: 'text/plain', content: 'notes' }]);
    const raw = await wire(message);
    expect(raw).toContain('Message-ID: <mail-7@topmark.mail>');
    expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=CANCEL/);
    expect(raw).toMatch(/filename=topmark-session-cancelled\.ics/);
    expect(raw).toMatch(/filename=notes\.txt/);
  });

  it('send a mail without files as plain text', async () => {
    const message = smtpMessageOf(
      { id: 'mail-8', to: 'a@example.com', subject: 'Hi', text: 'Hello' },
      'Topmark <no-reply@topmark.example>',
    );
    expect(message.icalEvent).toBeUndefined();
    expect(message.attachments).toEqual([]);
    expect(await wire(message)).toMatch(/Content-Type: text\/plain; charset=utf-8/);
  });
});
