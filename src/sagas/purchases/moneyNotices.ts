import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import type { PayoutPeriodEvent } from '../../domain/payouts/payoutPeriod.ts';
import { cardLabel, type PurchaseEvent } from '../../domain/purchases/purchase.ts';
import { reactor } from '../kit/reactor.ts';

export const MONEY_NOTICE_QUEUE = 'money-notices';

/** Older than this when the reactor meets it, a payment is history: the first run on an old log mails nobody. */
export const MONEY_NOTICE_WINDOW_MS = 7 * 24 * 3_600_000;

const MONEY_EVENTS = ['PurchaseCompleted', 'PurchaseRefunded', 'PayoutPeriodMarkedPaid'] as const;

/** Ids only: the worker reads the stream (and the reader's address) when it sends. */
export interface MoneyNoticeJob {
  streamId: string;
  eventId: string;
}

export const moneyNoticeJobId = (eventId: string) => deterministicUuid(`${eventId}/money-notice`);
export const moneyNoticeMailId = (eventId: string, personId: string) => deterministicUuid(`money-notice/${eventId}/${personId}`);

/** Each payment, refund and paid payout period becomes one job: a replayed batch enqueues nothing new. */
export const moneyNoticeReactor = reactor({
  name: 'money_notices',
  handles: MONEY_EVENTS,
  jobsFor(event) {
    if (Date.now() - event.recordedAt.getTime() > MONEY_NOTICE_WINDOW_MS) return [];
    const job: MoneyNoticeJob = { streamId: event.streamId, eventId: event.id };
    return [{ queue: MONEY_NOTICE_QUEUE, id: moneyNoticeJobId(event.id), data: { ...job } }];
  },
});

/** Integer cents as dollars to the cent: 12345 → "$123.45", -500 → "-$5.00". */
export const dollars = (cents: number): string =>
  `${cents < 0 ? '-' : ''}$${Math.floor(Math.abs(cents) / 100).toLocaleString('en-US')}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

const credits = (n: number) => `${n} session credit${n === 1 ? '' : 's'}`;
const signature = ['', '— The Topmark team'];

export interface MoneyNoticeDeps {
  sql: Sql;
  store: EventStore;
  mailer: Mailer;
}

interface Reader {
  id: string;
  email: string;
  first_name: string;
}

/** A live account's address (a deleted account has no row; an erased one is never written to). */
async function readerOf(sql: Sql, userId: string): Promise<Reader | null> {
  const [row] = await sql<Reader[]>`SELECT id, email, first_name FROM users WHERE id = ${userId}`;
  return row?.email && row.email !== ERASED ? row : null;
}

async function send(deps: MoneyNoticeDeps, eventId: string, reader: Reader, subject: string, lines: string[]) {
  const hello = reader.first_name && reader.first_name !== ERASED ? `Hi ${reader.first_name},` : 'Hello,';
  await deps.mailer.send({
    id: moneyNoticeMailId(eventId, reader.id),
    dataSubject: `user-${reader.id}`,
    to: reader.email,
    subject,
    text: [hello, '', ...lines, ...signature].join('\n'),
  });
}

async function packageName(sql: Sql, packageId: string): Promise<string | null> {
  const [row] = await sql<{ name: string }[]>`SELECT name FROM packages WHERE id = ${packageId}`;
  return row?.name ?? null;
}

async function purchaseNotice(deps: MoneyNoticeDeps, job: MoneyNoticeJob): Promise<number> {
  const events = (await deps.store.readStream(job.streamId)).map((e) => ({ id: e.id, event: toDomainEvent<PurchaseEvent>(e) }));
  const started = events.find((e) => e.event.type === 'PurchaseStarted')?.event;
  const event = events.find((e) => e.id === job.eventId)?.event;
  if (started?.type !== 'PurchaseStarted' || !event) return 0;
  const reader = await readerOf(deps.sql, started.data.purchasedBy);
  if (!reader) return 0;
  const name = (await packageName(deps.sql, started.data.packageId)) ?? 'Session package';
  if (event.type === 'PurchaseCompleted') {
    const paid = started.data.finalCents;
    await send(deps, job.eventId, reader, `Your Topmark receipt: ${dollars(paid)}`, [
      paid > 0
        ? 'Thank you for your payment. This is your receipt.'
        : 'Thank you for your order. Nothing was charged; this is your receipt.',
      '',
      `Package: ${name} (${credits(started.data.sessionCount)})`,
      `Price: ${dollars(started.data.priceCents)}`,
      ...(started.data.promo ? [`Promo code discount: -${dollars(started.data.promo.discountCents)}`] : []),
      `Amount paid: ${dollars(paid)}`,
      // Only where the provider named the card (brand and last 4 digits, nothing more).
      ...(event.data.card ? [`Paid with: ${cardLabel(event.data.card)}`] : []),
      `Date: ${event.data.at.slice(0, 10)}`,
      `Receipt number: ${started.data.purchaseId}`,
      '',
      'The credits are in your course: book your sessions from your dashboard.',
    ]);
    return 1;
  }
  if (event.type === 'PurchaseRefunded') {
    const { amountCents, creditsRemoved, reason } = event.data;
    await send(deps, job.eventId, reader, `Your Topmark refund: ${dollars(amountCents)}`, [
      amountCents > 0
        ? `We refunded ${dollars(amountCents)} of your purchase of ${name} to the card you paid with.`
        : `Your purchase of ${name} was cancelled; nothing was charged, so no money is returned.`,
      creditsRemoved > 0
        ? `${credits(creditsRemoved)} ${creditsRemoved === 1 ? 'was' : 'were'} removed from your course.`
        : 'No session credits were removed from your course.',
      ...(reason.trim() ? [`Reason: ${reason.trim()}`] : []),
      `Date: ${event.data.at.slice(0, 10)}`,
      `Purchase: ${started.data.purchaseId}`,
      ...(amountCents > 0 ? ['', 'Your bank usually shows the refund within 5 to 10 business days.'] : []),
    ]);
    return 1;
  }
  return 0;
}

/** Each tutor paid in the period hears what they were paid (their lines' sum) and the payment's reference. */
async function payoutNotice(deps: MoneyNoticeDeps, job: MoneyNoticeJob): Promise<number> {
  const events = (await deps.store.readStream(job.streamId)).map((e) => ({ id: e.id, event: toDomainEvent<PayoutPeriodEvent>(e) }));
  const at = events.findIndex((e) => e.id === job.eventId);
  const paid = events[at]?.event;
  if (paid?.type !== 'PayoutPeriodMarkedPaid') return 0;
  const approved = events
    .slice(0, at)
    .map((e) => e.event)
    .filter((e) => e.type === 'PayoutPeriodApproved')
    .at(-1);
  if (approved?.type !== 'PayoutPeriodApproved') return 0;
  const byTutor = new Map<string, { cents: number; sessions: number }>();
  for (const line of approved.data.lines) {
    const sum = byTutor.get(line.tutorId) ?? { cents: 0, sessions: 0 };
    byTutor.set(line.tutorId, { cents: sum.cents + line.amountCents, sessions: sum.sessions + line.sessions });
  }
  const method = {
    direct_deposit: 'direct deposit',
    e_transfer: 'Interac e-Transfer',
    cheque: 'cheque',
    other: 'the method agreed with you',
  }[paid.data.method];
  let sent = 0;
  for (const [tutorId, sum] of byTutor) {
    if (sum.cents <= 0) continue;
    const reader = await readerOf(deps.sql, tutorId);
    if (!reader) continue;
    await send(deps, job.eventId, reader, `Topmark payout sent: ${dollars(sum.cents)}`, [
      `Your pay for ${approved.data.periodStart} to ${approved.data.periodEnd} was sent by ${method}.`,
      '',
      `Amount: ${dollars(sum.cents)} (${sum.sessions} session${sum.sessions === 1 ? '' : 's'})`,
      `Reference: ${paid.data.reference}`,
      `Date: ${paid.data.at.slice(0, 10)}`,
      '',
      'The lines of the period are in your dashboard under Payouts.',
    ]);
    sent += 1;
  }
  return sent;
}

/** The notice of one event; every mail's id derives from (event, reader), so sending again sends nothing twice. */
export async function sendMoneyNotice(deps: MoneyNoticeDeps, job: MoneyNoticeJob): Promise<number> {
  return job.streamId.startsWith('payoutPeriod-') ? payoutNotice(deps, job) : purchaseNotice(deps, job);
}

export async function workMoneyNotices(queue: JobQueue, deps: MoneyNoticeDeps): Promise<void> {
  await queue.work<MoneyNoticeJob>(MONEY_NOTICE_QUEUE, async (job) => {
    await sendMoneyNotice(deps, job);
  });
}
