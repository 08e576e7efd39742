import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredParent, registeredStudent } from '../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { approvedTutor } from '../../../tests/support/tutors.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { KeptMail } from '../../adapters/mail/mailer.ts';
import { payoutPeriodStreamId } from '../../domain/payouts/payoutPeriod.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { reactorProjector } from '../kit/reactor.ts';
import {
  dollars,
  MONEY_NOTICE_QUEUE,
  MONEY_NOTICE_WINDOW_MS,
  moneyNoticeJobId,
  moneyNoticeReactor,
  sendMoneyNotice,
} from './moneyNotices.ts';

const now = () => new Date().toISOString();

describe('money notices: amounts and the reactor', () => {
  it('writes integer cents as dollars to the cent', () => {
    expect([dollars(0), dollars(5), dollars(12345), dollars(123456789), dollars(-500)]).toEqual([
      '$0.00',
      '$0.05',
      '$123.45',
      '$1,234,567.89',
      '-$5.00',
    ]);
  });

  it('makes one job per event, its id from the event; history older than the window is not news', () => {
    const event = (recordedAt: Date) =>
      ({
        id: randomUUID(),
        type: 'PurchaseCompleted',
        streamId: 'purchase-p1',
        revision: 1,
        position: '0',
        recordedAt,
        metadata: {},
        // The reactor parses what it is given: a payment as the log holds one.
        data: { purchaseId: 'p1', paymentIntentId: 'pi_1', kind: 'purchase', card: null, at: recordedAt.toISOString() },
      }) satisfies RecordedEvent;
    const fresh = event(new Date());
    const jobs = moneyNoticeReactor.jobsFor(fresh);
    expect(jobs).toEqual([
      { queue: MONEY_NOTICE_QUEUE, id: moneyNoticeJobId(fresh.id), data: { streamId: 'purchase-p1', eventId: fresh.id } },
    ]);
    expect(moneyNoticeReactor.jobsFor(fresh)).toEqual(jobs);
    expect(moneyNoticeReactor.jobsFor(event(new Date(Date.now() - MONEY_NOTICE_WINDOW_MS - 3_600_000)))).toEqual([]);
  });
});

describe('money notices through the saga', () => {
  let system: TestSystem;
  let parentId: string;
  let studentId: string;
  const parentEmail = 'money-parent@example.com';
  const kidEmail = 'student-money-kid@example.com';

  beforeAll(async () => {
    system = await createTestSystem('all');
    ({ userId: parentId } = await registeredParent(system, 'money-parent', { firstName: 'Pam', lastName: 'Payer', email: parentEmail }));
    ({ studentId } = await registeredStudent(system, 'money-kid', { parentId, firstName: 'Kit' }));
    expect(await waitForProjections(system.sql, ['users', 'students'], await system.store.committedPosition(), 30_000)).toBe(true);
  }, 60_000);
  afterAll(() => system.dispose());

  const mailsTo = async (to: string, subject: string): Promise<KeptMail[]> =>
    ((await system.mailer.mailbox?.list({ limit: 5000, to })) ?? []).filter((m) => m.subject.startsWith(subject));
  const deps = () => ({ sql: system.sql, store: system.store, mailer: system.mailer });

  async function purchase(): Promise<{ purchaseId: string; packageName: string | null }> {
    const [pkg] = await system.sql<{ id: string; name: string }[]>`SELECT id, name FROM packages ORDER BY id LIMIT 1`;
    const purchaseId = randomUUID();
    await system.store.append(
      `purchase-${purchaseId}`,
      [
        {
          id: randomUUID(),
          type: 'PurchaseStarted',
          metadata: {},
          data: {
            purchaseId,
            studentId,
            purchasedBy: parentId,
            packageId: pkg?.id ?? 'pkg-none',
            subjectId: 'math',
            sessionCount: 8,
            priceCents: 48_000,
            promo: { promoCodeId: 'SPRING', discountCents: 4_850 },
            finalCents: 43_150,
            paymentIntentId: 'pi_1',
            kind: 'purchase',
            courseId: null,
            checkoutSessionId: null,
            at: now(),
          },
        },
        {
          id: randomUUID(),
          type: 'PurchaseCompleted',
          metadata: {},
          data: { purchaseId, paymentIntentId: 'pi_1', kind: 'purchase', at: now() },
        },
      ],
      'no_stream',
    );
    return { purchaseId, packageName: pkg?.name ?? null };
  }

  it('sends the payer (the parent, not the child) one receipt and one refund notice, in dollars and plain words, once each', async () => {
    const { purchaseId, packageName } = await purchase();
    await expect.poll(async () => (await mailsTo(parentEmail, 'Your Topmark receipt')).length, { timeout: 20_000 }).toBe(1);
    const [receipt] = await mailsTo(parentEmail, 'Your Topmark receipt');
    expect(receipt?.subject).toBe('Your Topmark receipt: $431.50');
    expect(receipt?.text).toContain('Hi Pam,');
    if (packageName) expect(receipt?.text).toContain(`Package: ${packageName} (8 session credits)`);
    expect(receipt?.text).toContain('Price: $480.00');
    expect(receipt?.text).toContain('Promo code discount: -$48.50');
    expect(receipt?.text).toContain('Amount paid: $431.50');
    expect(receipt?.text).toContain(`Receipt number: ${purchaseId}`);
    // A completion recorded without a card (older events, or a provider that did not say): nothing about a card.
    expect(receipt?.text).not.toMatch(/Paid with|ending \d{4}/);

    await system.store.append(
      `purchase-${purchaseId}`,
      [
        {
          id: randomUUID(),
          type: 'PurchaseRefunded',
          metadata: {},
          data: {
            purchaseId,
            attempt: 1,
            amountCents: 10_788,
            creditsRemoved: 2,
            reason: 'Moving away',
            refundId: 're_1',
            refundedBy: null,
            at: now(),
          },
        },
      ],
      { exact: 1 },
    );
    await expect.poll(async () => (await mailsTo(parentEmail, 'Your Topmark refund')).length, { timeout: 20_000 }).toBe(1);
    const [refund] = await mailsTo(parentEmail, 'Your Topmark refund');
    expect(refund?.subject).toBe('Your Topmark refund: $107.88');
    expect(refund?.text).toContain('We refunded $107.88 of your purchase');
    expect(refund?.text).toContain('2 session credits were removed from your course.');
    expect(refund?.text).toContain('Reason: Moving away');
    expect((await system.mailer.mailbox?.list({ limit: 100, to: kidEmail })) ?? []).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ subject: expect.stringContaining('Topmark re') })]),
    );

    // The reactor's batch again, and every job run twice at once: nothing new.
    const events = await system.store.readStream(`purchase-${purchaseId}`);
    await reactorProjector(moneyNoticeReactor, system.jobs).apply(system.sql as never, events, 'live');
    for (const e of events.filter((x) => x.type !== 'PurchaseStarted')) {
      const job = { streamId: `purchase-${purchaseId}`, eventId: e.id };
      expect(await Promise.all([sendMoneyNotice(deps(), job), sendMoneyNotice(deps(), job)])).toEqual([1, 1]);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(parentEmail, 'Your Topmark receipt')).toHaveLength(1);
    expect(await mailsTo(parentEmail, 'Your Topmark refund')).toHaveLength(1);
    const jobs = await system.sql<{ id: string }[]>`
      SELECT id FROM pgboss.job WHERE name = ${MONEY_NOTICE_QUEUE} AND data->>'streamId' = ${`purchase-${purchaseId}`}`;
    expect(jobs).toHaveLength(2);
  }, 60_000);

  it('names the card the sandbox checkout took ("Visa ending 4242") and nothing more of its number', async () => {
    const [pkg] = await system.sql<{ id: string }[]>`SELECT id FROM packages ORDER BY id LIMIT 1`;
    const purchaseId = randomUUID();
    const intent = await system.payments.createPaymentIntent({
      amountCents: 43_150,
      currency: 'cad',
      idempotencyKey: `purchase-${purchaseId}`,
      description: 'Receipt card test',
      metadata: { purchaseId },
    });
    await system.store.append(
      `purchase-${purchaseId}`,
      [
        {
          id: randomUUID(),
          type: 'PurchaseStarted',
          metadata: {},
          data: {
            purchaseId,
            studentId,
            purchasedBy: parentId,
            packageId: pkg?.id ?? 'pkg-none',
            subjectId: 'math',
            sessionCount: 8,
            priceCents: 43_150,
            promo: null,
            finalCents: 43_150,
            paymentIntentId: intent.id,
            kind: 'purchase',
            courseId: null,
            checkoutSessionId: null,
            at: now(),
          },
        },
      ],
      'no_stream',
    );
    // The family pays on the sandbox card form; its event completes the purchase as a webhook would.
    expect(await system.payments.sandbox?.confirmWithCard(intent.id, '4242 4242 4242 4242')).toEqual({ status: 'succeeded' });
    const receiptOf = async () =>
      (await mailsTo(parentEmail, 'Your Topmark receipt')).find((m) => m.text.includes(`Receipt number: ${purchaseId}`));
    await expect.poll(receiptOf, { timeout: 20_000 }).toBeDefined();
    const completed = (await system.store.readStream(`purchase-${purchaseId}`)).find((e) => e.type === 'PurchaseCompleted');
    expect((completed?.data as { card?: unknown } | undefined)?.card).toEqual({ brand: 'visa', last4: '4242' });
    const receipt = await receiptOf();
    expect(receipt?.text).toContain('Paid with: Visa ending 4242');
    expect(receipt?.text).not.toMatch(/4242\s*4242|424242/);
    expect(JSON.stringify(completed)).not.toMatch(/424242/);
  }, 60_000);

  it('tells each tutor paid in a period the sum of their lines and the reference, once', async () => {
    const maya = await approvedTutor(system, 'money-maya', { firstName: 'Maya', lastName: 'Paid' });
    const theo = await approvedTutor(system, 'money-theo', { firstName: 'Theo', lastName: 'Paid' });
    expect(await waitForProjections(system.sql, ['users'], await system.store.committedPosition(), 30_000)).toBe(true);
    const periodStart = `20${40 + Math.floor(Math.random() * 59)}-0${1 + Math.floor(Math.random() * 9)}-01`;
    const streamId = payoutPeriodStreamId(periodStart);
    const line = (tutorId: string, sessions: number, amountCents: number) => ({
      kind: 'sessions',
      tutorId,
      sessions,
      rateCents: 2_500,
      amountCents,
      adjusts: null,
    });
    await system.store.append(
      streamId,
      [
        {
          id: randomUUID(),
          type: 'PayoutPeriodApproved',
          metadata: {},
          data: {
            periodStart,
            periodEnd: `${periodStart.slice(0, 8)}15`,
            lines: [line(maya.tutorId, 3, 7_500), line(maya.tutorId, 1, 2_501), line(theo.tutorId, 2, 5_000)],
            totalCents: 15_001,
            approvedBy: null,
            at: now(),
          },
        },
        {
          id: randomUUID(),
          type: 'PayoutPeriodMarkedPaid',
          metadata: {},
          data: { periodStart, method: 'e_transfer', reference: 'ET-2031-0042', paidBy: null, at: now() },
        },
      ],
      'no_stream',
    );
    await expect.poll(async () => (await mailsTo(maya.email, 'Topmark payout sent')).length, { timeout: 20_000 }).toBe(1);
    await expect.poll(async () => (await mailsTo(theo.email, 'Topmark payout sent')).length, { timeout: 20_000 }).toBe(1);
    const [mail] = await mailsTo(maya.email, 'Topmark payout sent');
    expect(mail?.subject).toBe('Topmark payout sent: $100.01');
    expect(mail?.text).toContain('Hi Maya,');
    expect(mail?.text).toContain('Amount: $100.01 (4 sessions)');
    expect(mail?.text).toContain('Reference: ET-2031-0042');
    expect(mail?.text).toContain('Interac e-Transfer');

    const paid = (await system.store.readStream(streamId)).at(-1) as RecordedEvent;
    expect(await sendMoneyNotice(deps(), { streamId, eventId: paid.id })).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(maya.email, 'Topmark payout sent')).toHaveLength(1);
    expect(await mailsTo(theo.email, 'Topmark payout sent')).toHaveLength(1);
  }, 60_000);
});
