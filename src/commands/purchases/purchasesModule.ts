import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import { type CheckoutSession, PaymentError, type PaymentIntent, type PaymentPort } from '../../adapters/payments/paymentPort.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { PromoCodeState } from '../../domain/promoCodes/promoCode.ts';
import { refusalOf } from '../../domain/promoCodes/promoCodeDecider.ts';
import type { AdminPurchaseListQuery } from '../../domain/purchases/adminPurchaseApi.ts';
import { type CatalogueFacts, type CataloguePrice, priceFromCatalogue } from '../../domain/purchases/checkoutCatalogue.ts';
import {
  FREE_PURCHASE,
  FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX,
  PAYMENT_WINDOW_MINUTES,
  type PurchaseStartedData,
} from '../../domain/purchases/purchase.ts';
import {
  checkRepurchase,
  PURCHASE_NOT_FOUND,
  REPURCHASE_COURSE_NOT_FOUND,
  REPURCHASE_WRONG_TIER,
  type RepurchaseFacts,
} from '../../domain/purchases/purchaseDecider.ts';
import {
  NO_TUTOR_FOR_SUBJECT,
  PURCHASE_NOT_FOUND_MESSAGE,
  REPURCHASE_CHECKOUT_SESSION_NOT_FOUND,
} from '../../domain/purchases/purchaseMessages.ts';
import { findAdminPurchase, listAdminPurchases, purchasesOfStudent } from '../../projections/purchases/queries.ts';
import { subjectHasListedTutor } from '../../projections/tutors/queries.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { compensating, stepOf } from '../kit/processStep.ts';
import { retriedClaim } from '../kit/retriedClaim.ts';
import { catalogueReader } from './catalogueFacts.ts';
import { type ClientAmounts, checkAmounts, dollarsOf } from './checkoutTerms.ts';
import {
  abandonPurchase,
  completePurchase,
  handlePaymentEvent,
  paidCard,
  paymentIdempotencyKey,
  purchaseHandlers,
  purchaseIdFor,
  REPURCHASE_METADATA_KIND,
  startPurchase,
  startRepurchase,
} from './purchaseHandlers.ts';
import { type CourseLedgerPort, quoteRefund, type RefundDeps, refundPurchase } from './refundPurchase.ts';

/** The read models a purchase's answer waits for. */
type PurchaseProjection = 'purchases' | 'purchase_fulfilment' | 'student_courses';
const purchaseProjections = ['purchases'] as const;
/** The fulfilment workflow that creates or credits the course. */
const fulfilmentProjections = ['purchases', 'purchase_fulfilment'] as const;
/** The courses read model, which shows the course the fulfilment created or credited. */
const courseProjections = ['student_courses'] as const;

/** A code's use held for a purchase (the promo codes feature's `PromoUse`). */
interface PromoUse {
  promoCodeId: string;
  claimId: string;
  userId: string;
  priceCents: number;
}
type Step = (name: string) => CommandContext;

/**
 * What the purchases feature needs, given by the composition root (system.ts): the store, the read
 * models, the payment provider, and what other features own — the student's course slots and grade
 * (accounts), the course's ledger and its repurchase mark (courses), the code's stream and its held
 * use (promo codes) — plus the read-your-writes wait, which a free purchase's answer needs before
 * its claims are final (a lag there gives them back, as it always did).
 */
export interface PurchasesModuleDeps {
  sql: Sql;
  store: EventStore;
  payments: PaymentPort;
  /** The site's public URL: the hosted checkout page returns there. */
  publicUrl: string;
  students: {
    grade(studentId: string): Promise<string | null>;
    claimEnrollment(
      input: { studentId: string; subjectId: string; purchaseId: string; gradeTierId: string },
      step: Step,
    ): Promise<{ suffix: string }>;
    releaseEnrollment(input: { studentId: string; purchaseId: string }, ctx: CommandContext): Promise<unknown>;
  };
  courses: {
    /** The course's ledger as its stream says (`purchases`: the purchases it holds the credits of). */
    ledger(courseId: string): Promise<RepurchaseFacts['course'] & { purchases: readonly string[] }>;
    markRepurchase(claim: { courseId: string; purchaseId: string }, ctx: CommandContext): Promise<{ alreadyHandled: boolean }>;
    holdsRepurchase(claim: { courseId: string; purchaseId: string }): Promise<boolean>;
    giveBackRepurchase(claim: { courseId: string; purchaseId: string }, ctx: CommandContext): Promise<unknown>;
    /** The course a first purchase creates. */
    courseIdOf(purchaseId: string): string;
    /** The course stream's command handler: a refund takes the purchase's unused credits off its ledger. */
    ledgerCommands: CourseLedgerPort['ledger'];
  };
  promos: {
    state(promoCodeId: string): Promise<PromoCodeState>;
    holdingUse<T>(use: PromoUse | null, step: Step, work: () => Promise<T>): Promise<T>;
  };
  waitFor(projections: readonly PurchaseProjection[], position: Position | null, timeoutMs?: number): Promise<void>;
}

/** Who acts, for the context of a command a route's call records. */
export interface Actor {
  userId: string;
  role: CommandContext['actorRole'];
  correlationId: string;
  now: Date;
}

/**
 * A checkout session's expiry: the payment window plus up to 10 minutes, rounded to a 10-minute
 * step so that a retried request (same purchase, same idempotency key) asks the provider for the
 * same checkout session. Stripe accepts 30 minutes to 24 hours ahead.
 */
export function checkoutSessionExpiry(now: Date): number {
  const step = 600;
  return Math.ceil(now.getTime() / 1000 / step) * step + PAYMENT_WINDOW_MINUTES * 60 + 60;
}

export const FREE_CLIENT_SECRET = 'free_purchase';

/** A first purchase (spec part 2 §7): a new course of a subject, paid with a payment intent on the checkout page. */
export interface FirstOrder extends ClientAmounts {
  kind: 'first';
  studentId: string;
  subjectId: string;
  packageId: string;
  promoCodeId?: string | null | undefined;
  email?: string | null | undefined;
}
/** A repurchase (spec part 2 §4): more sessions for a course, paid on the provider's hosted checkout page. */
export interface RepurchaseOrder extends ClientAmounts {
  kind: 'repurchase';
  studentId: string;
  courseId: string;
  packageId: string;
  promoCodeId?: string | null | undefined;
  email?: string | null | undefined;
}
export interface FirstAnswer {
  clientSecret: string;
  paymentIntentId: string | null;
  purchaseId: string;
  amount: number;
  packageName: string;
  sessionCount: number;
}
export interface RepurchaseAnswer {
  checkoutUrl: string;
  purchaseId: string;
}

/** What one kind of checkout does at the steps where the two differ. */
interface KindSteps<A> {
  purchaseKind: PurchaseStartedData['kind'];
  wrongTier: string | undefined;
  courseId: string | null;
  /** The facts priced and checked (the catalogue's, and for a repurchase the course's and the student's). */
  read(): Promise<{ catalogue: CatalogueFacts; subjectId: string; describe(packageName: string): string }>;
  /** The kind's own rules on the terms (the deciders check them again on the streams). */
  check(terms: Omit<PurchaseStartedData, 'at'>, catalogue: CatalogueFacts): void;
  /** The kind's claim before any money moves, and how it is given back when a later step fails. */
  claim(purchaseId: string, price: CataloguePrice, step: Step): Promise<() => Promise<unknown>>;
  start(terms: Omit<PurchaseStartedData, 'at'>, catalogue: CatalogueFacts, ctx: CommandContext): Promise<{ position: Position | null }>;
  /** Nothing owed: completed at once; the answer once the read models show it. */
  free(purchaseId: string, completedAt: Position | null, price: CataloguePrice): Promise<A>;
  /** The provider's payment: what the started terms name, and the answer. */
  pay(
    terms: Omit<PurchaseStartedData, 'at'>,
    price: CataloguePrice,
    description: string,
    now: Date,
  ): Promise<{ terms: Omit<PurchaseStartedData, 'at'>; answer: A }>;
}

/**
 * The purchases feature (docs/architecture.md "Feature modules"): checkout and repurchase as one
 * process parameterised by its kind, the provider's confirmation of either, the repurchase's
 * cancel, the provider's webhook and the student's purchases. Routes authorise (the account-holder
 * rule, the buyer check over what this module loaded) and wait for the reads this module answers.
 */
export function purchasesModule(deps: PurchasesModuleDeps) {
  const { sql, store, payments, students, courses, promos, waitFor } = deps;
  const purchases = purchaseHandlers(store);
  const refunds: RefundDeps = { purchases, courses: { ledger: courses.ledgerCommands, courseIdForPurchase: courses.courseIdOf }, payments };
  const readCatalogue = catalogueReader(store);
  const site = deps.publicUrl.replace(/\/+$/, '');

  /** The code as its own stream says it applies now (refused codes are refused): its terms price the purchase. */
  async function promoFor(promoCodeId: string | null | undefined, now: Date): Promise<CatalogueFacts['promo']> {
    if (!promoCodeId) return null;
    const state = await promos.state(promoCodeId);
    const refusal = refusalOf(state, now);
    if (refusal || !state.terms) throw new DomainError(refusal ?? 'Invalid promo code', state.terms ? 'conflict' : 'not_found');
    return { promoCodeId, terms: state.terms };
  }

  /**
   * The one checkout process: price from the catalogue's streams at decision time, no dead ends,
   * the code's terms, the browser's amounts; then the kind's claim, the code's use, and the purchase
   * started (completed at once when nothing is owed, else on the provider's payment). Every claim is
   * given back if a later step fails; every step's id derives from the request's, so a retry replays.
   */
  async function checkoutProcess<A>(kind: KindSteps<A>, buyerId: string, order: FirstOrder | RepurchaseOrder, ctx: CommandContext) {
    const read = await kind.read();
    // The subject, package and level first (their refusals come before the code's).
    priceFromCatalogue(read.catalogue, kind.wrongTier);
    // Nothing is sold that no one can teach (issue 24): the directory's read model says whether a
    // listed tutor teaches the subject. A guard against a dead end, not a claim to hold: a tutor who
    // leaves after this check leaves the course to choose again (the dashboard's path).
    if (!(await subjectHasListedTutor(sql, read.subjectId))) throw new DomainError(NO_TUTOR_FOR_SUBJECT, 'conflict');
    const catalogue = { ...read.catalogue, promo: await promoFor(order.promoCodeId, ctx.now) };
    const price = priceFromCatalogue(catalogue, kind.wrongTier);
    const { quote, package: found } = price;
    const promoCodeId = price.promo?.promoCodeId ?? null;
    checkAmounts(order, quote, promoCodeId !== null);

    const purchaseId = purchaseIdFor(ctx.commandId);
    const step = stepOf(ctx);
    const terms: Omit<PurchaseStartedData, 'at'> = {
      purchaseId,
      studentId: order.studentId,
      purchasedBy: buyerId,
      packageId: found.packageId,
      subjectId: read.subjectId,
      sessionCount: price.sessionCount,
      priceCents: price.priceCents,
      promo: price.promo,
      finalCents: price.finalCents,
      paymentIntentId: null,
      kind: kind.purchaseKind,
      courseId: kind.courseId,
      checkoutSessionId: null,
    };
    kind.check(terms, catalogue);

    // The rules first, before any money moves: the kind's claim, then the code's use.
    const giveBack = await kind.claim(purchaseId, price, step);
    const promoUse = promoCodeId ? { promoCodeId, claimId: purchaseId, userId: buyerId, priceCents: quote.originalCents } : null;
    return compensating(
      () =>
        promos.holdingUse(promoUse, step, async () => {
          if (quote.finalCents === 0) {
            await kind.start(terms, catalogue, step('start'));
            const { position } = await completePurchase(purchases, { purchaseId, paymentIntentId: FREE_PURCHASE }, step('complete'));
            return kind.free(purchaseId, position, price);
          }
          const paid = await kind.pay(terms, price, read.describe(found.name), ctx.now);
          const { position } = await kind.start(paid.terms, catalogue, step('start'));
          await waitFor(purchaseProjections, position);
          return paid.answer;
        }),
      giveBack,
    );
  }

  /** A first purchase: the student's course slot on their stream is the claim; the payment an intent the checkout page confirms. */
  const firstKind = (order: FirstOrder): KindSteps<FirstAnswer> => {
    const answer = (price: CataloguePrice, purchaseId: string, clientSecret: string, paymentIntentId: string | null): FirstAnswer => ({
      clientSecret,
      paymentIntentId,
      purchaseId,
      amount: dollarsOf(price.quote.finalCents),
      packageName: price.package.name,
      sessionCount: price.package.sessionCount,
    });
    return {
      purchaseKind: 'purchase',
      wrongTier: undefined,
      courseId: null,
      read: async () => ({
        catalogue: await readCatalogue(order.subjectId, order.packageId, null),
        subjectId: order.subjectId,
        describe: (packageName) => packageName,
      }),
      check: () => {},
      claim: async (purchaseId, price, step) => {
        const enrollment = await students.claimEnrollment(
          { studentId: order.studentId, subjectId: order.subjectId, purchaseId, gradeTierId: price.gradeTierId },
          step,
        );
        return () => students.releaseEnrollment({ studentId: order.studentId, purchaseId }, step(`release-enrollment${enrollment.suffix}`));
      },
      start: (terms, catalogue, ctx) => startPurchase(purchases, { terms, catalogue }, ctx),
      free: async (purchaseId, position, price) => {
        await waitFor(purchaseProjections, position);
        return answer(price, purchaseId, FREE_CLIENT_SECRET, null);
      },
      pay: async (terms, price, description) => {
        const intent = await payments.createPaymentIntent({
          amountCents: price.quote.finalCents,
          currency: 'cad',
          idempotencyKey: paymentIdempotencyKey(terms.purchaseId),
          description,
          metadata: { purchaseId: terms.purchaseId, studentId: order.studentId, packageId: terms.packageId, subjectId: order.subjectId },
          ...(order.email ? { customerEmail: order.email } : {}),
        });
        return { terms: { ...terms, paymentIntentId: intent.id }, answer: answer(price, terms.purchaseId, intent.clientSecret, intent.id) };
      },
    };
  };

  /**
   * All from streams: the course's ledger, its subject's and the package's catalogue entries (the
   * package must be of the subject's level), the student's grade.
   */
  async function repurchaseFacts(studentId: string, courseId: string, packageId: string) {
    const ledger = await courses.ledger(courseId);
    // Someone else's course is as unknown as a course that does not exist.
    if (!ledger.exists || ledger.studentId !== studentId || !ledger.subjectId)
      throw new DomainError(REPURCHASE_COURSE_NOT_FOUND, 'not_found');
    const [catalogue, studentGrade] = await Promise.all([readCatalogue(ledger.subjectId, packageId, null), students.grade(studentId)]);
    const facts: RepurchaseFacts = {
      course: {
        exists: ledger.exists,
        studentId: ledger.studentId,
        subjectId: ledger.subjectId,
        status: ledger.status,
        sessionsRemaining: ledger.sessionsRemaining,
      },
      catalogue,
      studentGrade,
    };
    return { facts, subjectId: ledger.subjectId, subjectName: catalogue.subject.entry?.name ?? '' };
  }

  /** A repurchase: the course's repurchase mark is the claim; the payment a hosted checkout session. */
  const repurchaseKind = (order: RepurchaseOrder): KindSteps<RepurchaseAnswer> => {
    let facts: RepurchaseFacts;
    const withCatalogue = (catalogue: CatalogueFacts): RepurchaseFacts => ({ ...facts, catalogue });
    return {
      purchaseKind: 'repurchase',
      wrongTier: REPURCHASE_WRONG_TIER,
      courseId: order.courseId,
      read: async () => {
        const read = await repurchaseFacts(order.studentId, order.courseId, order.packageId);
        facts = read.facts;
        return {
          catalogue: read.facts.catalogue,
          subjectId: read.subjectId,
          describe: (packageName) => `${read.subjectName}: ${packageName}`,
        };
      },
      check: (terms, catalogue) => checkRepurchase(terms, withCatalogue(catalogue)),
      // First the course's own stream: one repurchase at a time, none of an ended course (409 for
      // the others). A request retried after giving the mark back claims it again (`retriedClaim`);
      // one whose purchase started needs no mark of its own (the purchase's end clears it).
      claim: async (purchaseId, _price, step) => {
        const claim = { courseId: order.courseId, purchaseId };
        const mark = await retriedClaim(
          step,
          'mark-repurchase',
          (c) => courses.markRepurchase(claim, c),
          async () => (await courses.holdsRepurchase(claim)) || (await purchases.purchases.load(purchaseId)).started !== null,
        );
        return async () => {
          // Started: from now on the purchase owns the mark, and its end (credited, abandoned) clears it.
          if ((await purchases.purchases.load(purchaseId)).started) return;
          await courses.giveBackRepurchase(claim, step(`release-repurchase${mark.suffix}`));
        };
      },
      start: (terms, catalogue, ctx) => startRepurchase(purchases, { terms, ...withCatalogue(catalogue) }, ctx),
      free: async (purchaseId, position) => {
        await waitFor(fulfilmentProjections, position, 10_000);
        await waitFor(courseProjections, await store.committedPosition(), 10_000);
        const checkoutSessionId = `${FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX}${purchaseId}`;
        return { checkoutUrl: `/checkout?repurchase=true&session_id=${encodeURIComponent(checkoutSessionId)}`, purchaseId };
      },
      pay: async (terms, price, description, now) => {
        const { purchaseId } = terms;
        const checkoutSession = await payments.createCheckoutSession({
          amountCents: price.quote.finalCents,
          currency: 'cad',
          idempotencyKey: paymentIdempotencyKey(purchaseId),
          description,
          metadata: {
            purchaseId,
            kind: REPURCHASE_METADATA_KIND,
            studentId: order.studentId,
            courseId: order.courseId,
            packageId: terms.packageId,
          },
          successUrl: `${site}/checkout?repurchase=true&session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${site}/checkout?repurchase=true&cancelled=true&purchase=${encodeURIComponent(purchaseId)}`,
          expiresAt: checkoutSessionExpiry(now),
          ...(order.email ? { customerEmail: order.email } : {}),
        });
        return { terms: { ...terms, checkoutSessionId: checkoutSession.id }, answer: { checkoutUrl: checkoutSession.url, purchaseId } };
      },
    };
  };

  function checkout(buyerId: string, order: FirstOrder, ctx: CommandContext): Promise<FirstAnswer>;
  function checkout(buyerId: string, order: RepurchaseOrder, ctx: CommandContext): Promise<RepurchaseAnswer>;
  function checkout(buyerId: string, order: FirstOrder | RepurchaseOrder, ctx: CommandContext): Promise<FirstAnswer | RepurchaseAnswer> {
    return order.kind === 'first'
      ? checkoutProcess(firstKind(order), buyerId, order, ctx)
      : checkoutProcess(repurchaseKind(order), buyerId, order, ctx);
  }

  const contextOf = (actor: Actor, commandId: string) =>
    commandContext({ commandId, actorId: actor.userId, actorRole: actor.role, correlationId: actor.correlationId, now: actor.now });

  /** The provider's intent and the purchase it pays (404 for either unknown); the route checks the buyer. */
  async function purchaseOfIntent(paymentIntentId: string) {
    let intent: PaymentIntent;
    try {
      intent = await payments.retrievePaymentIntent(paymentIntentId);
    } catch (error) {
      if (error instanceof PaymentError && (error.reason === 'not_found' || error.reason === 'invalid_request'))
        throw new DomainError(PURCHASE_NOT_FOUND_MESSAGE, 'not_found');
      throw error;
    }
    const purchaseId = intent.metadata.purchaseId;
    const { started } = purchaseId ? await purchases.purchases.load(purchaseId) : { started: null };
    if (!started || started.paymentIntentId !== intent.id) throw new DomainError(PURCHASE_NOT_FOUND_MESSAGE, 'not_found');
    return { intent, started };
  }

  /** The purchase a checkout session pays (404 for an unknown checkout session); the route checks the buyer. */
  async function repurchaseOfCheckoutSession(
    checkoutSessionId: string,
  ): Promise<{ started: PurchaseStartedData; checkoutSession: CheckoutSession | null }> {
    if (checkoutSessionId.startsWith(FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX)) {
      const { started } = await purchases.purchases.load(checkoutSessionId.slice(FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX.length));
      if (started?.kind !== 'repurchase' || started.finalCents !== 0)
        throw new DomainError(REPURCHASE_CHECKOUT_SESSION_NOT_FOUND, 'not_found');
      return { started, checkoutSession: null };
    }
    let checkoutSession: CheckoutSession;
    try {
      checkoutSession = await payments.retrieveCheckoutSession(checkoutSessionId);
    } catch (error) {
      if (error instanceof PaymentError && (error.reason === 'not_found' || error.reason === 'invalid_request'))
        throw new DomainError(REPURCHASE_CHECKOUT_SESSION_NOT_FOUND, 'not_found');
      throw error;
    }
    const purchaseId = checkoutSession.metadata.purchaseId;
    const { started } = purchaseId ? await purchases.purchases.load(purchaseId) : { started: null };
    if (!started || started.checkoutSessionId !== checkoutSession.id)
      throw new DomainError(REPURCHASE_CHECKOUT_SESSION_NOT_FOUND, 'not_found');
    return { started, checkoutSession };
  }

  return {
    checkout,
    purchaseOfIntent,
    repurchaseOfCheckoutSession,
    /** The answers wait for these: the purchase, then the fulfilment that creates or credits the course, then the courses read model. */
    projections: { purchase: purchaseProjections, fulfilment: fulfilmentProjections, courses: courseProjections },

    /** The card form's intent succeeded: the purchase completes once (as with the webhook); the position to wait for, null when already completed. */
    async confirmPayment(started: PurchaseStartedData, intent: PaymentIntent, actor: Actor) {
      const ctx = contextOf(actor, deterministicUuid(`confirm-payment/${intent.id}`));
      const { position } = await completePurchase(
        purchases,
        { purchaseId: started.purchaseId, paymentIntentId: intent.id, card: intent.card },
        ctx,
      );
      return {
        position,
        enrollmentData: {
          purchaseId: started.purchaseId,
          courseId: courses.courseIdOf(started.purchaseId),
          studentId: started.studentId,
          subjectId: started.subjectId,
          packageId: started.packageId,
        },
      };
    },

    /** A paid checkout session completes its repurchase (once, as the webhook does); false while it is not paid. */
    async completePaidRepurchase(started: PurchaseStartedData, checkoutSession: CheckoutSession, actor: Actor): Promise<boolean> {
      if (checkoutSession.status !== 'complete' || checkoutSession.paymentStatus !== 'paid' || !checkoutSession.paymentIntentId)
        return false;
      const ctx = contextOf(actor, deterministicUuid(`repurchase-verify/${checkoutSession.id}`));
      const card = await paidCard(payments, checkoutSession.paymentIntentId);
      await completePurchase(
        purchases,
        { purchaseId: started.purchaseId, paymentIntentId: checkoutSession.paymentIntentId, checkoutSessionId: checkoutSession.id, card },
        ctx,
      );
      return true;
    },

    /** Whether the course's ledger holds the repurchase's credits (its own stream says). */
    credited: async (started: PurchaseStartedData) =>
      started.courseId !== null && (await courses.ledger(started.courseId)).purchases.includes(started.purchaseId),

    /** The repurchase a cancel URL names (404 unless a repurchase); the route checks the buyer. */
    async repurchaseToCancel(purchaseId: string) {
      const state = await purchases.purchases.load(purchaseId);
      const started = state.started;
      if (started?.kind !== 'repurchase') throw new DomainError(REPURCHASE_CHECKOUT_SESSION_NOT_FOUND, 'not_found');
      return { status: state.status, started };
    },

    /**
     * The customer left the hosted checkout: the session is expired at the provider and the
     * repurchase abandoned; one paid meanwhile completes instead. `abandoned`: abandoned by this call (the route waits for its position).
     */
    async cancelRepurchase(
      toCancel: { status: string; started: PurchaseStartedData },
      actor: Actor,
    ): Promise<{ cancelled: boolean; abandoned: { position: Position | null } | null }> {
      const { status, started } = toCancel;
      const { purchaseId } = started;
      if (status !== 'pending' || !started.checkoutSessionId) return { cancelled: status === 'abandoned', abandoned: null };
      const ctx = (name: string) => contextOf(actor, deterministicUuid(`repurchase-cancel/${purchaseId}/${name}`));
      const checkoutSession = await payments.expireCheckoutSession(started.checkoutSessionId);
      if (checkoutSession.status === 'complete' && checkoutSession.paymentStatus === 'paid' && checkoutSession.paymentIntentId) {
        const card = await paidCard(payments, checkoutSession.paymentIntentId);
        await completePurchase(
          purchases,
          { purchaseId, paymentIntentId: checkoutSession.paymentIntentId, checkoutSessionId: checkoutSession.id, card },
          ctx('complete'),
        );
        return { cancelled: false, abandoned: null };
      }
      const { position } = await abandonPurchase(purchases, { purchaseId }, ctx('abandon'));
      return { cancelled: true, abandoned: { position } };
    },

    /** The provider's event (the webhook), each handled once. */
    paymentEvent: (event: Parameters<typeof handlePaymentEvent>[1], now: Date) => handlePaymentEvent(purchases, event, payments, now),

    /** A student's purchases, newest first. */
    ofStudent: (studentId: string) => purchasesOfStudent(sql, studentId),

    /** The console's page of purchases, searched and filtered. */
    adminPurchases: (query: AdminPurchaseListQuery) => listAdminPurchases(sql, query),
    /** One purchase as the console shows it (after the refund's read-your-writes); a 404 when it is not there. */
    async adminPurchase(purchaseId: string) {
      const purchase = await findAdminPurchase(sql, purchaseId);
      if (!purchase) throw new DomainError(PURCHASE_NOT_FOUND, 'not_found');
      return purchase;
    },
    /** What a refund would give back now: the unused sessions and their share of what was paid (dollars). */
    async refundQuote(purchaseId: string) {
      const quote = await quoteRefund(refunds, purchaseId);
      return { purchaseId, amount: quote.amountCents / 100, credits: quote.credits };
    },
    /**
     * Refunds a completed purchase's unused sessions through the provider (issue 12 §2); a
     * provider failure is compensated and surfaces as `ProviderRefundError`.
     */
    refund: (input: { purchaseId: string; reason: string }, ctx: CommandContext) => refundPurchase(refunds, input, ctx),
    /** The refund's answer shows the purchase and its course's ledger as they are after it. */
    refundProjections: ['purchases', 'student_courses'] as const,
  };
}

export type PurchasesModule = ReturnType<typeof purchasesModule>;
