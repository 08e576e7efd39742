import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type CheckoutSession, PaymentError } from '../../../adapters/payments/paymentPort.ts';
import { courseHandlers } from '../../../commands/courses/courseHandlers.ts';
import { clearRepurchase, holdsRepurchase, markRepurchasePending } from '../../../commands/courses/courseRepurchase.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../../../commands/kit/commandContext.ts';
import { compensating, stepOf } from '../../../commands/kit/processStep.ts';
import { retriedClaim } from '../../../commands/kit/retriedClaim.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { holdingPromoUse } from '../../../commands/promoCodes/promoUses.ts';
import { catalogueReader } from '../../../commands/purchases/catalogueFacts.ts';
import {
  abandonPurchase,
  completePurchase,
  paidCard,
  paymentIdempotencyKey,
  purchaseHandlers,
  purchaseIdFor,
  REPURCHASE_METADATA_KIND,
  startRepurchase,
} from '../../../commands/purchases/purchaseHandlers.ts';
import { sessionsRemainingOf } from '../../../domain/courses/course.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import type { PromoQuote } from '../../../domain/promoCodes/promoTerms.ts';
import { priceFromCatalogue } from '../../../domain/purchases/checkoutCatalogue.ts';
import {
  FREE_PURCHASE,
  FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX,
  PAYMENT_WINDOW_MINUTES,
  type PurchaseStartedData,
} from '../../../domain/purchases/purchase.ts';
import {
  repurchaseAnswerSchema,
  repurchaseBodySchema,
  repurchaseCancelAnswerSchema,
  repurchaseVerifyAnswerSchema,
  sandboxCheckoutResultSchema,
  sandboxCheckoutSchema,
} from '../../../domain/purchases/purchaseApi.ts';
import {
  checkRepurchase,
  REPURCHASE_COURSE_NOT_FOUND,
  REPURCHASE_WRONG_TIER,
  type RepurchaseFacts,
} from '../../../domain/purchases/purchaseDecider.ts';
import { subjectHasListedTutor } from '../../../projections/tutors/queries.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { ReadModelLagError, readYourWrites } from '../../kit/readYourWrites.ts';
import { checkAmounts, dollarsOf, holderCheck, promoFor } from './checkoutTerms.ts';
import { NO_TUTOR_FOR_SUBJECT } from './purchaseRoutes.ts';

export const REPURCHASE_CHECKOUT_SESSION_NOT_FOUND = 'Checkout session not found';

/** Who may buy more sessions: the student or their parent (a view-only login never). */
const buyers = { roles: ['student', 'parent'] } as const;
const messageSchema = z.object({ message: z.string() });
const id = z.string().min(1).max(100);
/** The provider's checkout session id, named `sessionId` in the public URLs. */
const sessionIdParam = z.object({ sessionId: z.string().min(1).max(255) });
const purchaseProjections = ['purchases'] as const;
const fulfilmentProjections = ['purchases', 'purchase_fulfilment'] as const;
const courseProjections = ['student_courses'] as const;

/**
 * A checkout session's expiry: the payment window plus up to 10 minutes, rounded to a 10-minute
 * step so that a retried request (same purchase, same idempotency key) asks the provider for the
 * same checkout session. Stripe accepts 30 minutes to 24 hours ahead.
 */
export function checkoutSessionExpiry(now: Date): number {
  const step = 600;
  return Math.ceil(now.getTime() / 1000 / step) * step + PAYMENT_WINDOW_MINUTES * 60 + 60;
}

/**
 * Repurchase (spec part 2 §4, §7): more sessions for a course whose sessions are all used, paid on
 * the provider's hosted checkout page (Stripe Checkout, or the sandbox's `/sandbox/checkout/{id}`);
 * the verify call the checkout page polls on its return; the sandbox's hosted page's own calls.
 *
 * Free repurchases (a 100% code) never see a checkout page: the purchase completes at once and the
 * answer's `checkoutUrl` is `/checkout?repurchase=true&session_id=free_<purchaseId>`, which the
 * checkout page verifies like a provider's checkout session.
 */
export const repurchaseRoutes =
  ({ sql, store, payments, accounts, config }: Pick<System, 'sql' | 'store' | 'payments' | 'accounts' | 'config'>): FastifyPluginAsyncZod =>
  async (app) => {
    const purchases = purchaseHandlers(store);
    const promos = promoCodeHandlers(store);
    const courses = courseHandlers(store);
    const readCatalogue = catalogueReader(store);
    const assertHolder = holderCheck(accounts.handlers.students);
    const site = config.PUBLIC_URL.replace(/\/+$/, '');

    /**
     * All from streams: the course's ledger, its subject's and the package's catalogue entries
     * (the package must be of the subject's level), the student's grade.
     */
    async function repurchaseFacts(
      studentId: string,
      courseId: string,
      packageId: string,
    ): Promise<{ facts: RepurchaseFacts; subjectId: string; subjectName: string }> {
      const ledger = await courses.courses.load(courseId);
      // Someone else's course is as unknown as a course that does not exist.
      if (!ledger.exists || ledger.studentId !== studentId || !ledger.subjectId)
        throw new DomainError(REPURCHASE_COURSE_NOT_FOUND, 'not_found');
      const [catalogue, student] = await Promise.all([
        readCatalogue(ledger.subjectId, packageId, null),
        accounts.handlers.students.load(studentId),
      ]);
      const facts: RepurchaseFacts = {
        course: {
          exists: ledger.exists,
          studentId: ledger.studentId,
          subjectId: ledger.subjectId,
          status: ledger.status,
          sessionsRemaining: sessionsRemainingOf(ledger),
        },
        catalogue,
        studentGrade: student.grade || null,
      };
      return { facts, subjectId: ledger.subjectId, subjectName: catalogue.subject.entry?.name ?? '' };
    }

    async function repurchase(
      principal: Principal,
      params: { studentId: string; courseId: string },
      body: z.output<typeof repurchaseBodySchema>,
      ctx: CommandContext,
    ) {
      await assertHolder(principal, params.studentId, 'act');
      const read = await repurchaseFacts(params.studentId, params.courseId, body.packageId);
      // The subject, package and level first (their refusals come before the code's).
      priceFromCatalogue(read.facts.catalogue, REPURCHASE_WRONG_TIER);
      const { subjectId, subjectName } = read;
      // No dead ends (issue 24): more sessions of a subject nobody teaches any more could never be
      // booked; the course card offers support's refund instead. A guard, not a claim, as at checkout.
      if (!(await subjectHasListedTutor(sql, subjectId))) throw new DomainError(NO_TUTOR_FOR_SUBJECT, 'conflict');
      const promo = await promoFor(promos, body.promoCodeId, ctx.now);
      const facts: RepurchaseFacts = { ...read.facts, catalogue: { ...read.facts.catalogue, promo } };
      const price = priceFromCatalogue(facts.catalogue, REPURCHASE_WRONG_TIER);
      const { quote, package: found } = price;
      const promoCodeId = promo?.promoCodeId ?? null;
      checkAmounts(body, quote, promoCodeId !== null);

      const purchaseId = purchaseIdFor(ctx.commandId);
      const step = stepOf(ctx);
      const terms: Omit<PurchaseStartedData, 'at'> = {
        purchaseId,
        studentId: params.studentId,
        purchasedBy: principal.userId,
        packageId: found.packageId,
        subjectId,
        sessionCount: price.sessionCount,
        priceCents: price.priceCents,
        promo: price.promo,
        finalCents: price.finalCents,
        paymentIntentId: null,
        kind: 'repurchase',
        courseId: params.courseId,
        checkoutSessionId: null,
      };
      // The rules before anything is claimed or charged (the deciders check them again on the streams).
      checkRepurchase(terms, facts);

      // First the course's own stream: one repurchase at a time, none of an ended course (409 for
      // the others). A request retried after giving the mark back claims it again (`retriedClaim`);
      // one whose purchase started needs no mark of its own (the purchase's end clears it).
      const claim = { courseId: params.courseId, purchaseId };
      const mark = await retriedClaim(
        step,
        'mark-repurchase',
        (c) => markRepurchasePending(courses, claim, c),
        async () => (await holdsRepurchase(courses, claim)) || (await purchases.purchases.load(purchaseId)).started !== null,
      );
      return compensating(
        () =>
          pay(
            principal,
            {
              terms,
              facts,
              quote,
              promoCodeId,
              courseId: params.courseId,
              description: `${subjectName}: ${found.name}`,
              email: body.email,
            },
            ctx,
          ),
        async () => {
          // Started: from now on the purchase owns the mark, and its end (credited, abandoned) clears it.
          if ((await purchases.purchases.load(purchaseId)).started) return;
          await clearRepurchase(courses, { ...claim, outcome: 'given_back' }, step(`release-repurchase${mark.suffix}`));
        },
      );
    }

    /** Claims the promo use, then starts the purchase: completed at once when free, else on a hosted checkout session. */
    async function pay(
      principal: Principal,
      order: {
        terms: Omit<PurchaseStartedData, 'at'>;
        facts: RepurchaseFacts;
        quote: PromoQuote;
        promoCodeId: string | null;
        courseId: string;
        /** What the hosted checkout page says is bought. */
        description: string;
        email: string | null | undefined;
      },
      ctx: CommandContext,
    ) {
      const { terms, facts, quote, promoCodeId, courseId } = order;
      const { purchaseId, studentId, packageId } = terms;
      const step = stepOf(ctx);
      const promoUse = promoCodeId ? { promoCodeId, claimId: purchaseId, userId: principal.userId, priceCents: quote.originalCents } : null;
      return holdingPromoUse(promos, promoUse, step, async () => {
        if (quote.finalCents === 0) {
          await startRepurchase(purchases, { terms, ...facts }, step('start'));
          const { position } = await completePurchase(purchases, { purchaseId, paymentIntentId: FREE_PURCHASE }, step('complete'));
          await readYourWrites(sql, fulfilmentProjections, position, 10_000);
          await readYourWrites(sql, courseProjections, await store.committedPosition(), 10_000);
          const checkoutSessionId = `${FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX}${purchaseId}`;
          return { checkoutUrl: `/checkout?repurchase=true&session_id=${encodeURIComponent(checkoutSessionId)}`, purchaseId };
        }
        const checkoutSession = await payments.createCheckoutSession({
          amountCents: quote.finalCents,
          currency: 'cad',
          idempotencyKey: paymentIdempotencyKey(purchaseId),
          description: order.description,
          metadata: { purchaseId, kind: REPURCHASE_METADATA_KIND, studentId, courseId, packageId },
          successUrl: `${site}/checkout?repurchase=true&session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${site}/checkout?repurchase=true&cancelled=true&purchase=${encodeURIComponent(purchaseId)}`,
          expiresAt: checkoutSessionExpiry(ctx.now),
          ...(order.email ? { customerEmail: order.email } : {}),
        });
        const { position } = await startRepurchase(
          purchases,
          { terms: { ...terms, checkoutSessionId: checkoutSession.id }, ...facts },
          step('start'),
        );
        await readYourWrites(sql, purchaseProjections, position);
        return { checkoutUrl: checkoutSession.url, purchaseId };
      });
    }

    /** The purchase a checkout session pays, for its buyer only (404 for an unknown checkout session, 403 for someone else's). */
    async function repurchaseOfCheckoutSession(principal: Principal, checkoutSessionId: string) {
      const { started, checkoutSession } = checkoutSessionId.startsWith(FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX)
        ? await freeRepurchase(checkoutSessionId.slice(FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX.length))
        : await paidRepurchase(checkoutSessionId);
      if (started.purchasedBy !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
      return { started, checkoutSession };
    }
    async function freeRepurchase(purchaseId: string) {
      const { started } = await purchases.purchases.load(purchaseId);
      if (started?.kind !== 'repurchase' || started.finalCents !== 0)
        throw new DomainError(REPURCHASE_CHECKOUT_SESSION_NOT_FOUND, 'not_found');
      return { started, checkoutSession: null };
    }
    async function paidRepurchase(checkoutSessionId: string) {
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

    /** Whether the course's ledger holds the repurchase's credits (its own stream says). */
    const credited = async (started: PurchaseStartedData) =>
      started.courseId !== null && (await courses.courses.load(started.courseId)).purchases.includes(started.purchaseId);

    app.post(
      '/api/student/:studentId/courses/:courseId/repurchase',
      {
        config: buyers,
        schema: {
          tags: ['purchases'],
          summary:
            'Buy more sessions for a course with none remaining (4, 8 or 12 of its grade tier): the server’s price (a different amount is refused), then the hosted checkout page to pay on',
          params: z.object({ studentId: id, courseId: id }),
          body: repurchaseBodySchema,
          response: { 200: repurchaseAnswerSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({
          status: 200,
          body: await repurchase(principalOf(request), request.params, request.body, ctx),
        })),
    );

    app.get(
      '/api/repurchase/verify/:sessionId',
      {
        config: buyers,
        schema: {
          tags: ['purchases'],
          summary:
            'After the hosted checkout: a paid session completes its repurchase (once, as the webhook does); processed once the course has the credits',
          params: sessionIdParam,
          response: { 200: repurchaseVerifyAnswerSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { started, checkoutSession } = await repurchaseOfCheckoutSession(principal, request.params.sessionId);
        if (checkoutSession) {
          if (checkoutSession.status !== 'complete' || checkoutSession.paymentStatus !== 'paid' || !checkoutSession.paymentIntentId)
            return { processed: false };
          const ctx = commandContext({
            commandId: deterministicUuid(`repurchase-verify/${checkoutSession.id}`),
            actorId: principal.userId,
            actorRole: principal.role,
            correlationId: request.id,
            now: app.clock.now(),
          });
          const card = await paidCard(payments, checkoutSession.paymentIntentId);
          await completePurchase(
            purchases,
            {
              purchaseId: started.purchaseId,
              paymentIntentId: checkoutSession.paymentIntentId,
              checkoutSessionId: checkoutSession.id,
              card,
            },
            ctx,
          );
        }
        try {
          // Completed by this call or by the webhook: wait for the fulfilment, then the courses read model.
          await readYourWrites(sql, fulfilmentProjections, await store.committedPosition(), 5_000);
          if (!(await credited(started))) return { processed: false };
          await readYourWrites(sql, courseProjections, await store.committedPosition(), 5_000);
        } catch (error) {
          // Still on its way: the page asks again.
          if (error instanceof ReadModelLagError) return { processed: false };
          throw error;
        }
        return { processed: true };
      },
    );

    app.post(
      '/api/repurchase/:purchaseId/cancel',
      {
        config: buyers,
        schema: {
          tags: ['purchases'],
          summary:
            'The customer left the hosted checkout (its cancel URL): the session is expired at the provider and the repurchase abandoned (the promo use given back); one paid meanwhile completes instead',
          params: z.object({ purchaseId: id }),
          response: { 200: repurchaseCancelAnswerSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { purchaseId } = request.params;
        const state = await purchases.purchases.load(purchaseId);
        const started = state.started;
        if (started?.kind !== 'repurchase') throw new DomainError(REPURCHASE_CHECKOUT_SESSION_NOT_FOUND, 'not_found');
        if (started.purchasedBy !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
        if (state.status !== 'pending' || !started.checkoutSessionId) return { cancelled: state.status === 'abandoned' };
        const ctx = (step: string) =>
          commandContext({
            commandId: deterministicUuid(`repurchase-cancel/${purchaseId}/${step}`),
            actorId: principal.userId,
            actorRole: principal.role,
            correlationId: request.id,
            now: app.clock.now(),
          });
        const checkoutSession = await payments.expireCheckoutSession(started.checkoutSessionId);
        if (checkoutSession.status === 'complete' && checkoutSession.paymentStatus === 'paid' && checkoutSession.paymentIntentId) {
          const card = await paidCard(payments, checkoutSession.paymentIntentId);
          await completePurchase(
            purchases,
            { purchaseId, paymentIntentId: checkoutSession.paymentIntentId, checkoutSessionId: checkoutSession.id, card },
            ctx('complete'),
          );
          return { cancelled: false };
        }
        const { position } = await abandonPurchase(purchases, { purchaseId }, ctx('abandon'));
        // The fulfilment gives the promo use back and clears the course's repurchase mark (End Course works at once).
        await readYourWrites(sql, fulfilmentProjections, position, 10_000);
        return { cancelled: true };
      },
    );

    // --- The sandbox's hosted checkout page (`/sandbox/checkout/{id}`); absent with Stripe and in production.

    const sandboxControls = () => {
      const sandbox = payments.sandbox;
      if (!sandbox || config.NODE_ENV === 'production') throw new DomainError('Not found', 'not_found');
      return sandbox;
    };
    const sandboxFailure = (error: unknown): never => {
      if (error instanceof PaymentError && error.reason === 'not_found')
        throw new DomainError(REPURCHASE_CHECKOUT_SESSION_NOT_FOUND, 'not_found');
      if (error instanceof PaymentError && error.reason === 'invalid_request') throw new DomainError(error.message, 'conflict');
      throw error;
    };
    /** The page, for the buyer of the repurchase the checkout session pays. */
    async function sandboxPage(principal: Principal, checkoutSessionId: string) {
      const sandbox = sandboxControls();
      const page = await sandbox.checkoutPage(checkoutSessionId).catch(sandboxFailure);
      await repurchaseOfCheckoutSession(principal, page.checkoutSession.id);
      return { sandbox, page };
    }
    const pageView = (page: Awaited<ReturnType<typeof sandboxPage>>['page']) => ({
      id: page.checkoutSession.id,
      description: page.description,
      amount: dollarsOf(page.checkoutSession.amountCents),
      currency: 'CAD' as const,
      status: page.checkoutSession.status,
      requiresAction: page.requiresAction,
      successUrl: page.successUrl,
      cancelUrl: page.cancelUrl,
    });

    app.get(
      '/api/sandbox/checkout-sessions/:sessionId',
      {
        config: buyers,
        schema: {
          tags: ['purchases'],
          summary: 'The sandbox’s hosted checkout page: the order and where Pay and Cancel lead (the buyer only)',
          params: sessionIdParam,
          response: { 200: sandboxCheckoutSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => pageView((await sandboxPage(principalOf(request), request.params.sessionId)).page),
    );

    const pageStep = <B extends z.ZodType>(
      path: string,
      summary: string,
      body: B,
      act: (
        sandbox: ReturnType<typeof sandboxControls>,
        checkoutSessionId: string,
        body: z.output<B>,
      ) => Promise<{ status: string; message?: string }>,
    ) =>
      app.post(
        path,
        {
          config: buyers,
          schema: {
            tags: ['purchases'],
            summary,
            params: sessionIdParam,
            body,
            response: { 200: sandboxCheckoutResultSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
          },
        },
        async (request) => {
          const { sessionId: checkoutSessionId } = request.params as z.output<typeof sessionIdParam>;
          const { sandbox, page } = await sandboxPage(principalOf(request), checkoutSessionId);
          const result = await act(sandbox, page.checkoutSession.id, request.body as z.output<B>).catch(sandboxFailure);
          const status = result.status as z.output<typeof sandboxCheckoutResultSchema>['status'];
          return {
            status,
            ...(result.message ? { message: result.message } : {}),
            ...(status === 'succeeded' ? { redirectTo: page.successUrl } : {}),
          };
        },
      );
    pageStep(
      '/api/sandbox/checkout-sessions/:sessionId/pay',
      'The sandbox’s hosted checkout page: pay with one of Stripe’s test cards (the buyer only)',
      z.object({ cardNumber: z.string().min(1).max(40) }),
      (sandbox, checkoutSessionId, body) => sandbox.completeCheckoutSession(checkoutSessionId, body.cardNumber),
    );
    pageStep(
      '/api/sandbox/checkout-sessions/:sessionId/authenticate',
      'The sandbox’s hosted checkout page: the 3-D Secure answer for a card that asked for it (the buyer only)',
      z.object({ approve: z.boolean() }),
      (sandbox, checkoutSessionId, body) => sandbox.authenticateCheckoutSession(checkoutSessionId, body.approve),
    );
  };
