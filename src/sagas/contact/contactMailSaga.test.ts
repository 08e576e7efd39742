import { afterEach, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import type { Mailer, OutgoingMail } from '../../adapters/mail/mailer.ts';
import { listOutbox, OutboxMailer } from '../../adapters/mail/outboxMailer.ts';
import { receiveContactMessage } from '../../commands/contact/receiveContactMessage.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { contactStreamId } from '../../domain/contact/contact.ts';

/** A mail provider that is down for its first `failures` calls, then delivers to the outbox. */
class FlakyMailer implements Mailer {
  readonly kind = 'outbox' as const;
  calls = 0;
  delegate: OutboxMailer | null = null;
  constructor(private failures: number) {}
  async send(mail: OutgoingMail): Promise<void> {
    this.calls++;
    if (this.calls <= this.failures) throw new Error('mail provider unavailable');
    await (this.delegate as OutboxMailer).send(mail);
  }
}

async function until(check: () => Promise<boolean>, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const message = { name: 'Ann Lee', email: 'ann@example.com', phone: '', subject: 'Pricing', message: 'Do you tutor calculus?' };
let system: TestSystem | null = null;
afterEach(async () => {
  await system?.dispose();
  system = null;
});

describe('contact mail saga', () => {
  it('sends exactly one confirmation and one notification when the provider fails the first two calls', async () => {
    const mailer = new FlakyMailer(2);
    system = await createTestSystem('all', {}, { mailer, retry: { retryLimit: 4, retryDelaySeconds: 1 } });
    mailer.delegate = new OutboxMailer(system.sql);
    const { contactId } = await receiveContactMessage(system.store, message, commandContext({ now: system.clock.now() }));
    const s = system;
    await until(async () => (await listOutbox(s.sql)).length === 2 && (await s.store.readStream(contactStreamId(contactId))).length === 3);
    await new Promise((r) => setTimeout(r, 1500));
    const outbox = await listOutbox(system.sql);
    expect(outbox.map((m) => m.to).sort()).toEqual(['ann@example.com', 'support@topmark.ca']);
    expect(outbox.find((m) => m.to === 'ann@example.com')?.text).toContain('Do you tutor calculus?');
    const types = (await system.store.readStream(contactStreamId(contactId))).map((e) => e.type);
    expect(types.sort()).toEqual(['ContactConfirmationSent', 'ContactMessageReceived', 'SupportNotifiedOfContact']);
    expect(mailer.calls).toBe(4);

    // Rebuilding every read model replays the log but never re-fires a side effect.
    for (const p of system.projections.projectors) await system.projections.rebuild(p.name);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await listOutbox(system.sql)).toHaveLength(2);
    expect(mailer.calls).toBe(4);
  });

  it('dead-letters a job whose provider never recovers and raises an alert', async () => {
    const mailer = new FlakyMailer(Number.POSITIVE_INFINITY);
    system = await createTestSystem('all', {}, { mailer, retry: { retryLimit: 1, retryDelaySeconds: 1 } });
    await receiveContactMessage(system.store, message, commandContext({ now: system.clock.now() }));
    const s = system;
    await until(async () => {
      const rows = await s.sql`SELECT 1 FROM alerts WHERE type = 'job_failed'`.catch(() => []);
      return rows.length === 2;
    });
    const alerts = await system.sql<
      { title: string; severity: string; is_resolved: boolean }[]
    >`SELECT title, severity, is_resolved FROM alerts`;
    expect(alerts.map((a) => a.title)).toEqual(['Background job contact-mail gave up', 'Background job contact-mail gave up']);
    expect(alerts.every((a) => a.severity === 'high' && !a.is_resolved)).toBe(true);
    expect(await listOutbox(system.sql)).toHaveLength(0);
  });
});
