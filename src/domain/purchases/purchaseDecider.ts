import { allowedGradeTiers, GRADE_REQUIRED, GRADE_TIER_NOT_ALLOWED } from '../accounts/studentDecider.ts';
import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { type CatalogueFacts, checkAgainstCatalogue, priceFromCatalogue } from './checkoutCatalogue.ts';
import {
  evolvePurchase,
  FREE_PURCHASE,
  initialPurchaseState,
  type PaymentCardData,
  type PurchaseEvent,
  type PurchaseStartedData,
  type PurchaseState,
  paymentCardOf,
  REFUND_REASON_MAX,
  REFUND_TAKEOVER_MINUTES,
  REPURCHASE_SESSION_COUNTS,
} from './purchase.ts';

export const PURCHASE_NOT_FOUND = 'Purchase not found';
export const PURCHASE_EXISTS = 'This purchase was already started with other terms';
export const PAYMENT_MISMATCH = 'This payment does not belong to this purchase';
export const REPURCHASE_COURSE_NOT_FOUND = 'Course not found';
export const REPURCHASE_COURSE_ENDED = 'This course has ended';
export const REPURCHASE_NOT_YET = 'More sessions can be bought once this course has no sessions remaining';
export const REPURCHASE_PACKAGE_SIZE = 'Repurchase packages have 4, 8 or 12 sessions';
export const REPURCHASE_WRONG_TIER = "This package is not for this course's grade tier";
export const REPURCHASE_TERMS = 'A repurchase names the course it credits';
export const REFUND_ADMINS_ONLY = 'Only admins can refund purchases';
export const REFUND_REASON_REQUIRED = 'Please give a reason for the refund';
export const REFUND_REASON_TOO_LONG = `The reason can be at most ${REFUND_REASON_MAX} characters`;
export const ALREADY_REFUNDED = 'This purchase has already been refunded';
export const REFUND_NOT_COMPLETED = 'Only a completed purchase can be refunded';
export const REFUND_UNDER_WAY = 'A refund of this purchase is already under way';
export const NO_REFUND_UNDER_WAY = 'No refund of this purchase is under way';

/**
 * What the command layer reads for a repurchase, all from streams: the course's ledger, the
 * catalogue of its subject (the package must be of the subject's level) and the student's grade
 * (which must allow that tier, as at a first purchase).
 */
export interface RepurchaseFacts {
  course: {
    exists: boolean;
    studentId: string | null;
    subjectId: string | null;
    status: 'enrolled' | 'active' | 'inactive';
    sessionsRemaining: number;
  };
  catalogue: CatalogueFacts;
  /** The student's grade on their stream; null when none is set. */
  studentGrade: string | null;
}

export type PurchaseCommand =
  /** `catalogue`: the subject's and package's streams (and the code's terms) as read at decision time. */
  | Command<'StartPurchase', { terms: Omit<PurchaseStartedData, 'at'>; catalogue: CatalogueFacts }>
  | Command<'StartRepurchase', { terms: Omit<PurchaseStartedData, 'at'> } & RepurchaseFacts>
  /** `checkoutSessionId`: the hosted checkout session that was paid (a repurchase's only way to complete, besides free). */
  /** `card`: the brand and last 4 digits of the card that paid, where the provider said (for the receipt). */
  | Command<
      'CompletePurchase',
      { purchaseId: string; paymentIntentId: string; checkoutSessionId?: string | null; card?: PaymentCardData | null }
    >
  | Command<'FailPurchase', { purchaseId: string; reason: string; message: string }>
  | Command<'AbandonPurchase', { purchaseId: string }>
  | Command<'RequestRefund', { purchaseId: string; reason: string }>
  | Command<'RecordRefund', { purchaseId: string; attempt: number; amountCents: number; creditsRemoved: number; refundId: string | null }>
  | Command<'FailRefund', { purchaseId: string; attempt: number; code: string; message: string }>
  /** The provider reports refunds on the purchase's payment (a `charge.refunded` event). */
  | Command<'NoteProviderRefund', { purchaseId: string; paymentIntentId: string; amountRefundedCents: number; amountCents: number }>;

function requireStarted(state: PurchaseState): PurchaseStartedData {
  if (!state.started) throw new DomainError(PURCHASE_NOT_FOUND, 'not_found');
  return state.started;
}

/** Key order does not matter: the terms a retry sends are the same terms. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

/** Starting twice with the same terms changes nothing (a retried request); other terms are refused. */
function start(data: Omit<PurchaseStartedData, 'at'>, now: Date, state: PurchaseState): PurchaseEvent[] {
  if (state.started) {
    const { at: _at, ...previous } = state.started;
    if (canonical(previous) === canonical(data)) return [];
    throw new DomainError(PURCHASE_EXISTS, 'conflict');
  }
  return [{ type: 'PurchaseStarted', data: { ...data, at: now.toISOString() } }];
}

/**
 * A repurchase (spec part 2 §4, §9): more credits for the student's own course, only once its
 * sessions are all used (`sessionsRemaining` 0 on the course's ledger), only a 4, 8 or
 * 12-session package of the course's subject's level (a tier the student's grade allows), the
 * subject still offered, priced from the catalogue, never for an ended course.
 */
export function checkRepurchase(terms: Omit<PurchaseStartedData, 'at'>, { course, catalogue, studentGrade }: RepurchaseFacts): void {
  if (terms.kind !== 'repurchase' || !terms.courseId) throw new DomainError(REPURCHASE_TERMS, 'invalid');
  if (!course.exists || course.studentId !== terms.studentId) throw new DomainError(REPURCHASE_COURSE_NOT_FOUND, 'not_found');
  if (course.subjectId !== terms.subjectId) throw new DomainError(REPURCHASE_TERMS, 'invalid');
  if (course.status === 'inactive') throw new DomainError(REPURCHASE_COURSE_ENDED, 'conflict');
  if (!REPURCHASE_SESSION_COUNTS.includes(terms.sessionCount)) throw new DomainError(REPURCHASE_PACKAGE_SIZE, 'invalid');
  const { gradeTierId } = priceFromCatalogue(catalogue, REPURCHASE_WRONG_TIER);
  checkGrade(studentGrade, gradeTierId);
  if (course.sessionsRemaining > 0) throw new DomainError(REPURCHASE_NOT_YET, 'conflict');
  checkAgainstCatalogue(terms, catalogue, REPURCHASE_WRONG_TIER);
}

/** Spec part 2 §5: the student's grade allows the tier (the same rule the enrolment claim applies on the student's stream). */
function checkGrade(grade: string | null, gradeTierId: string): void {
  if (!grade) throw new DomainError(GRADE_REQUIRED, 'unprocessable');
  if (!allowedGradeTiers(grade).includes(gradeTierId)) throw new DomainError(GRADE_TIER_NOT_ALLOWED, 'invalid');
}

/**
 * A first purchase is priced from the catalogue as it stands at decision time: the subject
 * exists and is offered, the package is of the subject's level, and the price, promo and final
 * amount are the catalogue's (the grade is the enrolment claim's rule, on the student's stream).
 */
export function checkPurchase(terms: Omit<PurchaseStartedData, 'at'>, catalogue: CatalogueFacts): void {
  if (terms.kind === 'repurchase' || terms.courseId !== null) throw new DomainError(REPURCHASE_TERMS, 'invalid');
  checkAgainstCatalogue(terms, catalogue);
}

/** The reason as recorded: trimmed, required, bounded. */
function refundReason(reason: string): string {
  const trimmed = reason.trim();
  if (!trimmed) throw new DomainError(REFUND_REASON_REQUIRED, 'invalid');
  if (trimmed.length > REFUND_REASON_MAX) throw new DomainError(REFUND_REASON_TOO_LONG, 'invalid');
  return trimmed;
}

/**
 * A refund is claimed on the purchase's own stream, so concurrent requests make one refund: the
 * first claims it, the others are refused while it is under way. A claim whose process died is
 * taken over after a while with the same attempt (the same provider idempotency key: a refund the
 * dead process made is answered again, not made twice).
 */
function requestRefund(
  { data, metadata: { now, actorId, actorRole } }: Extract<PurchaseCommand, { type: 'RequestRefund' }>,
  state: PurchaseState,
): PurchaseEvent[] {
  if (actorRole !== 'admin') throw new DomainError(REFUND_ADMINS_ONLY, 'forbidden');
  requireStarted(state);
  const reason = refundReason(data.reason);
  if (state.status === 'refunded') throw new DomainError(ALREADY_REFUNDED, 'conflict');
  if (state.status !== 'completed') throw new DomainError(REFUND_NOT_COMPLETED, 'conflict');
  const underWay = state.refundUnderWay;
  if (underWay && now.getTime() - Date.parse(underWay.requestedAt) < REFUND_TAKEOVER_MINUTES * 60_000) {
    throw new DomainError(REFUND_UNDER_WAY, 'conflict');
  }
  const attempt = underWay ? underWay.attempt : state.refundAttempts + 1;
  return [
    {
      type: 'PurchaseRefundRequested',
      data: { purchaseId: data.purchaseId, attempt, reason, requestedBy: actorId ?? null, at: now.toISOString() },
    },
  ];
}

/**
 * One purchase: started at checkout with the server's price, completed exactly once (whichever of
 * the webhook and confirm-payment reports it first; a late success after a failure still completes,
 * since the money was taken), failed or abandoned only while pending.
 */
export const decidePurchase = decideWith<PurchaseCommand, PurchaseEvent, PurchaseState>({
  StartPurchase: ({ data: { terms, catalogue }, metadata: { now } }, state) => {
    // A retried request with the same terms answers as the first did, whatever the catalogue says now.
    if (state.started) return start(terms, now, state);
    checkPurchase(terms, catalogue);
    return start(terms, now, state);
  },

  StartRepurchase: ({ data: { terms, ...facts }, metadata: { now } }, state) => {
    // A retried request with the same terms answers as the first did, whatever the ledger says now.
    if (state.started) return start(terms, now, state);
    checkRepurchase(terms, facts);
    return start(terms, now, state);
  },

  CompletePurchase: ({ data, metadata: { now } }, state) => {
    const started = requireStarted(state);
    // Completed already (or refunded since): a late report of the payment changes nothing.
    if (state.status === 'completed' || state.status === 'refunded') return [];
    if (started.checkoutSessionId !== null) {
      // Paid on a hosted checkout page: only that session's completion counts.
      if (data.checkoutSessionId !== started.checkoutSessionId) throw new DomainError(PAYMENT_MISMATCH, 'conflict');
    } else if (data.paymentIntentId !== (started.paymentIntentId ?? FREE_PURCHASE)) {
      throw new DomainError(PAYMENT_MISMATCH, 'conflict');
    }
    return [
      {
        type: 'PurchaseCompleted',
        data: {
          purchaseId: data.purchaseId,
          paymentIntentId: data.paymentIntentId,
          kind: started.kind,
          // Nothing was charged on a free purchase; anything but a brand and 4 digits is not kept.
          card: data.paymentIntentId === FREE_PURCHASE ? null : paymentCardOf(data.card),
          at: now.toISOString(),
        },
      },
    ];
  },

  FailPurchase: ({ data, metadata: { now } }, state) => {
    requireStarted(state);
    if (state.status !== 'pending') return [];
    return [{ type: 'PurchaseFailed', data: { ...data, at: now.toISOString() } }];
  },

  AbandonPurchase: ({ data, metadata: { now } }, state) => {
    requireStarted(state);
    if (state.status !== 'pending') return [];
    return [{ type: 'PurchaseAbandoned', data: { purchaseId: data.purchaseId, at: now.toISOString() } }];
  },

  RequestRefund: requestRefund,

  RecordRefund: ({ data, metadata: { now } }, state) => {
    requireStarted(state);
    if (state.refunded?.attempt === data.attempt) return [];
    if (state.status === 'refunded') throw new DomainError(ALREADY_REFUNDED, 'conflict');
    const underWay = state.refundUnderWay;
    if (!underWay || underWay.attempt !== data.attempt) throw new DomainError(NO_REFUND_UNDER_WAY, 'conflict');
    return [
      {
        type: 'PurchaseRefunded',
        data: { ...data, reason: underWay.reason, refundedBy: underWay.requestedBy, at: now.toISOString() },
      },
      ...unexplainedReport(state, data.amountCents, now),
    ];
  },

  FailRefund: ({ data, metadata: { now } }, state) => {
    requireStarted(state);
    if (state.refundUnderWay?.attempt !== data.attempt) return [];
    return [{ type: 'PurchaseRefundFailed', data: { ...data, at: now.toISOString() } }, ...unexplainedReport(state, 0, now)];
  },

  // Only what Topmark's own refunds do not explain is recorded, once per amount reported: the
  // provider also reports the refunds Topmark makes, and reports each one again with the total.
  // While a refund of Topmark's is under way a report is kept (the largest) and judged once the
  // refund is recorded or fails: it may be that refund's own, or one made elsewhere meanwhile.
  NoteProviderRefund: ({ data, metadata: { now } }, state) => {
    requireStarted(state);
    if (state.paidWith !== data.paymentIntentId) return [];
    if (state.refundUnderWay !== null) {
      if (data.amountRefundedCents <= (state.reportedDuringRefund?.amountRefundedCents ?? 0)) return [];
      return [{ type: 'PurchaseProviderRefundReported', data: { ...data, at: now.toISOString() } }];
    }
    const explained = (state.refunded?.amountCents ?? 0) + state.externalRefundedCents;
    if (data.amountRefundedCents <= explained) return [];
    const unexplainedCents = data.amountRefundedCents - explained;
    return [{ type: 'PurchaseRefundedAtProvider', data: { ...data, unexplainedCents, at: now.toISOString() } }];
  },
});

/**
 * What a report kept during a refund shows beyond what Topmark refunded once that refund settles
 * (`refundedCents`: its amount, or 0 when it failed) and earlier outside refunds: recorded as a
 * refund made at the provider, beside the refund's outcome.
 */
function unexplainedReport(state: PurchaseState, refundedCents: number, now: Date): PurchaseEvent[] {
  const report = state.reportedDuringRefund;
  if (!report) return [];
  const unexplainedCents = report.amountRefundedCents - refundedCents - state.externalRefundedCents;
  if (unexplainedCents <= 0) return [];
  return [{ type: 'PurchaseRefundedAtProvider', data: { ...report, unexplainedCents, at: now.toISOString() } }];
}

export const purchaseDecider: Decider<PurchaseCommand, PurchaseEvent, PurchaseState> = {
  initialState: initialPurchaseState,
  evolve: evolvePurchase,
  decide: decidePurchase,
};
