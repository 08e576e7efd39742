import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PaymentError } from '../../../adapters/payments/paymentPort.ts';
import { dollarsOf } from '../../../commands/purchases/checkoutTerms.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  repurchaseAnswerSchema,
  repurchaseBodySchema,
  repurchaseCancelAnswerSchema,
  repurchaseVerifyAnswerSchema,
  sandboxCheckoutResultSchema,
  sandboxCheckoutSchema,
} from '../../../domain/purchases/purchaseApi.ts';
import { REPURCHASE_CHECKOUT_SESSION_NOT_FOUND } from '../../../domain/purchases/purchaseMessages.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { ReadModelLagError, readYourWrites } from '../../kit/readYourWrites.ts';
import { holderCheck } from './checkoutTerms.ts';

export { checkoutSessionExpiry } from '../../../commands/purchases/purchasesModule.ts';
export { REPURCHASE_CHECKOUT_SESSION_NOT_FOUND } from '../../../domain/purchases/purchaseMessages.ts';

/** Who may buy more sessions: the student or their parent (a view-only login never). */
const buyers = { roles: ['student', 'parent'] } as const;
const messageSchema = z.object({ message: z.string() });
const id = z.string().min(1).max(100);
/** The provider's checkout session id, named `sessionId` in the public URLs. */
const sessionIdParam = z.object({ sessionId: z.string().min(1).max(255) });

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
  ({
    sql,
    store,
    payments,
    accounts,
    config,
    purchases,
  }: Pick<System, 'sql' | 'store' | 'payments' | 'accounts' | 'config' | 'purchases'>): FastifyPluginAsyncZod =>
  async (app) => {
    const assertHolder = holderCheck(accounts.handlers.students);
    const actorOf = (principal: Principal, correlationId: string) => ({
      userId: principal.userId,
      role: principal.role,
      correlationId,
      now: app.clock.now(),
    });

    /** The purchase a checkout session pays, for its buyer only (404 for an unknown checkout session, 403 for someone else's). */
    async function repurchaseOfCheckoutSession(principal: Principal, checkoutSessionId: string) {
      const found = await purchases.repurchaseOfCheckoutSession(checkoutSessionId);
      if (found.started.purchasedBy !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
      return found;
    }

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
        idempotent(sql, request, reply, async (ctx) => {
          const principal = principalOf(request);
          await assertHolder(principal, request.params.studentId, 'act');
          return {
            status: 200,
            body: await purchases.checkout(principal.userId, { kind: 'repurchase', ...request.params, ...request.body }, ctx),
          };
        }),
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
        if (checkoutSession && !(await purchases.completePaidRepurchase(started, checkoutSession, actorOf(principal, request.id))))
          return { processed: false };
        try {
          // Completed by this call or by the webhook: wait for the fulfilment, then the courses read model.
          await readYourWrites(sql, purchases.projections.fulfilment, await store.committedPosition(), 5_000);
          if (!(await purchases.credited(started))) return { processed: false };
          await readYourWrites(sql, purchases.projections.courses, await store.committedPosition(), 5_000);
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
        const toCancel = await purchases.repurchaseToCancel(purchaseId);
        if (toCancel.started.purchasedBy !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
        const { cancelled, abandoned } = await purchases.cancelRepurchase(toCancel, actorOf(principal, request.id));
        // Abandoned now: the fulfilment gives the promo use back and clears the course's repurchase mark (End Course works at once).
        if (abandoned) await readYourWrites(sql, purchases.projections.fulfilment, abandoned.position, 10_000);
        return { cancelled };
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
