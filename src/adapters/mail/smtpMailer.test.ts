import { describe, expect, it } from 'vitest';
import { deliveryError, SmtpDeliveryError, SmtpMailer } from './smtpMailer.ts';

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
