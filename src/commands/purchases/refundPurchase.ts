import type { Position } from '../../adapters/eventstore/eventStore.ts';
import type { PaymentPort } from '../../adapters/payments/paymentPort.ts';
import { type CourseEvent, type CourseState, unusedCreditsOf } from '../../domain/courses/course.ts';
import type { CourseCommand } from '../../domain/courses/courseDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import {
  FREE_PURCHASE,
  type PurchaseStartedData,
  type PurchaseState,
  refundIdempotencyKey,
  refundShareCents,
} from '../../domain/purchases/purchase.ts';
import { PURCHASE_NOT_FOUND } from '../../domain/purchases/purchaseDecider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { CommandHandler } from '../kit/handleCommand.ts';
import { stepOf } from '../kit/processStep.ts';
import type { PurchaseHandlers } from './purchaseHandlers.ts';

/** The course ledger as a port: the route builds it from the courses feature's handlers. */
export interface CourseLedgerPort {
  ledger: CommandHandler<CourseCommand, CourseEvent, CourseState>;
  /** The course a first purchase created. */
  courseIdForPurchase: (purchaseId: string) => string;
}

export interface RefundDeps {
  purchases: PurchaseHandlers;
  courses: CourseLedgerPort;
  payments: Pick<PaymentPort, 'refund'>;
}

export interface RefundOutcome {
  purchaseId: string;
  amountCents: number;
  creditsRemoved: number;
  refundId: string | null;
  position: Position | null;
}

/** What a refund would give back now: the purchase's unused credits and their share of what was paid. */
export interface RefundQuote {
  amountCents: number;
  credits: number;
}

/** The provider refused or failed; the credits were given back and nothing is refunded. */
export class ProviderRefundError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProviderRefundError';
  }
}

/** The course holding a purchase's credits: a repurchase names it, a first purchase created it. */
const courseOfPurchase = (courses: CourseLedgerPort, started: PurchaseStartedData) =>
  started.courseId ?? courses.courseIdForPurchase(started.purchaseId);

const paidAtProvider = (state: PurchaseState, started: PurchaseStartedData) =>
  started.finalCents > 0 && state.paidWith !== null && state.paidWith !== FREE_PURCHASE;

/**
 * What the provider refunds for `credits` unused sessions: their share of what was paid, at most
 * what is left there after refunds made outside Topmark (never more than was paid in all).
 */
const providerShareCents = (state: PurchaseState, started: PurchaseStartedData, credits: number) =>
  paidAtProvider(state, started)
    ? Math.max(0, Math.min(refundShareCents(started, credits), started.finalCents - state.externalRefundedCents))
    : 0;

/** The refund an admin would make now (the dialog's figures), read from the purchase's and course's streams. */
export async function quoteRefund(deps: Omit<RefundDeps, 'payments'>, purchaseId: string): Promise<RefundQuote> {
  const state = await deps.purchases.purchases.load(purchaseId);
  if (!state.started) throw new DomainError(PURCHASE_NOT_FOUND, 'not_found');
  const course = await deps.courses.ledger.load(courseOfPurchase(deps.courses, state.started));
  const credits = state.status === 'completed' ? unusedCreditsOf(course, purchaseId) : 0;
  return { credits, amountCents: providerShareCents(state, state.started, credits) };
}

/**
 * Refunds a completed purchase (issue 12 §2). The order keeps everything the family paid for:
 *  1. the refund is claimed on the purchase's stream (one at a time: concurrent requests are refused);
 *  2. the purchase's unused credits leave the course's ledger, decided on the course's stream, so
 *     no booking can take a credit that is being refunded, and nothing booked or used is refunded;
 *  3. the provider refunds that share of what was paid, with a key derived from (purchase, attempt),
 *     so a retried or resumed attempt answers the same refund instead of making another;
 *  4. `PurchaseRefunded` is recorded; the fulfilment workflow then releases the promo use.
 * If the provider fails, the credits come back and the claim is released (`PurchaseRefundFailed`)
 * before the error surfaces. A free purchase skips the provider but still loses its unused credits.
 */
export async function refundPurchase(
  deps: RefundDeps,
  input: { purchaseId: string; reason: string },
  ctx: CommandContext,
): Promise<RefundOutcome> {
  const { purchaseId } = input;
  const step = stepOf(ctx);
  const purchases = deps.purchases.purchases;
  const claimed = async (name: string) => {
    const claim = await purchases.handle(purchaseId, { type: 'RequestRefund', data: input }, step(name));
    const requested = claim.events.find((e) => e.type === 'PurchaseRefundRequested');
    if (!requested) throw new Error(`The refund of ${purchaseId} was not claimed`);
    return { attempt: requested.data.attempt, state: await purchases.load(purchaseId) };
  };
  let { attempt, state } = await claimed('request');
  // This very request already finished (a retry after the answer was lost).
  if (state.refunded?.attempt === attempt) return outcome(state.refunded, null);
  if (state.refundUnderWay?.attempt !== attempt) {
    // This request's earlier try failed and gave its claim back: a retry is a new attempt.
    ({ attempt, state } = await claimed(`request-${state.refundAttempts + 1}`));
  }
  const started = state.started;
  if (!started) throw new DomainError(PURCHASE_NOT_FOUND, 'not_found');

  const courseId = courseOfPurchase(deps.courses, started);
  const giveBackClaim = (code: string, message: string) =>
    purchases.handle(purchaseId, { type: 'FailRefund', data: { purchaseId, attempt, code, message } }, step(`fail-${attempt}`));

  let creditsRemoved: number;
  try {
    await deps.courses.ledger.handle(
      courseId,
      { type: 'RemovePurchaseCredits', data: { courseId, purchaseId } },
      step(`remove-credits-${attempt}`),
    );
    const course = await deps.courses.ledger.load(courseId);
    creditsRemoved = course.credited.find((c) => c.purchaseId === purchaseId)?.removed ?? 0;
  } catch (error) {
    // Nothing to remove (all used or booked, or the course not credited yet): nothing was taken.
    await giveBackClaim('credits', error instanceof Error ? error.message : 'credits');
    throw error;
  }

  const amountCents = providerShareCents(state, started, creditsRemoved);
  let refundId: string | null = null;
  if (amountCents > 0) {
    try {
      const refund = await deps.payments.refund({
        paymentIntentId: state.paidWith as string,
        amountCents,
        idempotencyKey: refundIdempotencyKey(purchaseId, attempt),
      });
      refundId = refund.id;
    } catch (error) {
      const code = (error as { reason?: string }).reason ?? 'provider_error';
      const message = error instanceof Error ? error.message : 'The payment provider failed';
      await deps.courses.ledger.handle(
        courseId,
        { type: 'RestorePurchaseCredits', data: { courseId, purchaseId } },
        step(`restore-credits-${attempt}`),
      );
      await giveBackClaim(code, message);
      throw new ProviderRefundError(code, message, { cause: error });
    }
  }

  const recorded = await purchases.handle(
    purchaseId,
    { type: 'RecordRefund', data: { purchaseId, attempt, amountCents, creditsRemoved, refundId } },
    step(`record-${attempt}`),
  );
  return { purchaseId, amountCents, creditsRemoved, refundId, position: recorded.position };
}

function outcome(
  refunded: { purchaseId: string; amountCents: number; creditsRemoved: number; refundId: string | null },
  position: Position | null,
): RefundOutcome {
  return {
    purchaseId: refunded.purchaseId,
    amountCents: refunded.amountCents,
    creditsRemoved: refunded.creditsRemoved,
    refundId: refunded.refundId,
    position,
  };
}
