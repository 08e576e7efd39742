import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PaymentError } from '../../../adapters/payments/paymentPort.ts';
import type { CommandContext } from '../../../commands/kit/commandContext.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  confirmPaymentAnswerSchema,
  confirmPaymentBodySchema,
  createPaymentIntentBodySchema,
  paymentIntentAnswerSchema,
  paymentsConfigSchema,
  purchaseViewSchema,
} from '../../../domain/purchases/purchaseApi.ts';
import {
  PAYMENT_NOT_COMPLETED,
  PAYMENT_PENDING,
  PURCHASE_DETAILS_MISMATCH,
  PURCHASE_NOT_FOUND_MESSAGE,
} from '../../../domain/purchases/purchaseMessages.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';
import { holderCheck } from './checkoutTerms.ts';

export { FREE_CLIENT_SECRET } from '../../../commands/purchases/purchasesModule.ts';
export {
  NO_TUTOR_FOR_SUBJECT,
  PAYMENT_NOT_COMPLETED,
  PAYMENT_PENDING,
  PURCHASE_DETAILS_MISMATCH,
  PURCHASE_NOT_FOUND_MESSAGE,
} from '../../../domain/purchases/purchaseMessages.ts';
export { AMOUNT_MISMATCH } from './checkoutTerms.ts';

/** Who may pay: a student for themselves, a parent for their student (a view-only login buys nothing). */
const buyers = { roles: ['student', 'parent'] } as const;
/** Who may read a student's purchases. */
const readers = { roles: ['student', 'parent', 'student_secondary', 'admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const cardAnswerSchema = z.object({
  status: z.enum(['succeeded', 'requires_payment_method', 'requires_action']),
  message: z.string().optional(),
});
type CardAnswer = z.output<typeof cardAnswerSchema>;

type CreateBody = z.output<typeof createPaymentIntentBodySchema>;

/** Checkout (spec part 2 §7): the payment intent, its confirmation, the provider's webhook, the sandbox card form, the student's purchases. */
export const purchaseRoutes =
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

    async function checkout(principal: Principal, body: CreateBody, ctx: CommandContext) {
      await assertHolder(principal, body.studentId, 'act');
      return purchases.checkout(principal.userId, { kind: 'first', ...body }, ctx);
    }

    /** The provider's intent and the purchase it pays, for its buyer only. */
    async function purchaseOfIntent(principal: Principal, paymentIntentId: string) {
      const found = await purchases.purchaseOfIntent(paymentIntentId);
      if (found.started.purchasedBy !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
      return found;
    }

    app.get(
      '/api/payments/config',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['purchases'],
          summary: 'Which card form checkout shows: Stripe (with its publishable key) or the sandbox provider',
          response: { 200: paymentsConfigSchema },
        },
      },
      () => ({ provider: payments.kind, publishableKey: payments.publishableKey }),
    );

    app.post(
      '/api/create-payment-intent',
      {
        config: buyers,
        schema: {
          tags: ['purchases'],
          summary:
            'Start a checkout: the price from the package and the code on the server (a different amount is refused), the enrolment rules, then the payment intent; a final price of 0 completes at once',
          body: createPaymentIntentBodySchema,
          response: { 200: paymentIntentAnswerSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({ status: 200, body: await checkout(principalOf(request), request.body, ctx) })),
    );

    app.post(
      '/api/confirm-payment',
      {
        config: buyers,
        schema: {
          tags: ['purchases'],
          summary: 'After the card form: the provider says whether the intent succeeded; the purchase completes once (as with the webhook)',
          body: confirmPaymentBodySchema,
          response: { 200: confirmPaymentAnswerSchema, 402: messageSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) => {
        const { body } = request;
        const { intent, started } = await purchaseOfIntent(principalOf(request), body.paymentIntentId);
        if (started.studentId !== body.studentId || started.packageId !== body.packageId || started.subjectId !== body.subjectId) {
          throw new DomainError(PURCHASE_DETAILS_MISMATCH, 'invalid');
        }
        if (intent.status === 'processing' || intent.status === 'requires_action')
          return reply.status(409).send({ message: PAYMENT_PENDING });
        if (intent.status !== 'succeeded')
          return reply.status(402).send({ message: intent.lastPaymentError?.message ?? PAYMENT_NOT_COMPLETED });
        const principal = principalOf(request);
        const { position, enrollmentData } = await purchases.confirmPayment(started, intent, {
          userId: principal.userId,
          role: principal.role,
          correlationId: request.id,
          now: app.clock.now(),
        });
        // Completed by the webhook already: wait for what the log holds now.
        await readYourWrites(sql, purchases.projections.fulfilment, position ?? (await store.committedPosition()), 10_000);
        // The fulfilment appended the course's events before its checkpoint moved: now the course read model.
        await readYourWrites(sql, purchases.projections.courses, await store.committedPosition(), 10_000);
        return {
          enrollmentData,
          redirectTo: '/tutor-selection',
        };
      },
    );

    /**
     * The sandbox provider's own steps (Stripe's test cards, its 3-D Secure check), for the buyer of
     * the purchase only; absent (404) with Stripe and in production.
     */
    const sandboxStep = <B extends z.ZodType>(
      path: string,
      summary: string,
      body: B,
      act: (sandbox: NonNullable<typeof payments.sandbox>, paymentIntentId: string, body: z.output<B>) => Promise<CardAnswer>,
      refusedAs: 'invalid' | 'conflict',
    ) =>
      app.post(
        path,
        {
          config: buyers,
          schema: {
            tags: ['purchases'],
            summary,
            params: z.object({ paymentIntentId: z.string().min(1).max(255) }),
            body,
            response: { 200: cardAnswerSchema, 403: messageSchema, 404: messageSchema },
          },
        },
        async (request) => {
          const sandbox = payments.sandbox;
          if (!sandbox || config.NODE_ENV === 'production') throw new DomainError('Not found', 'not_found');
          const { paymentIntentId } = request.params as { paymentIntentId: string };
          const { intent } = await purchaseOfIntent(principalOf(request), paymentIntentId);
          try {
            return await act(sandbox, intent.id, request.body as z.output<B>);
          } catch (error) {
            if (error instanceof PaymentError && error.reason === 'invalid_request') throw new DomainError(error.message, refusedAs);
            if (error instanceof PaymentError && error.reason === 'not_found')
              throw new DomainError(PURCHASE_NOT_FOUND_MESSAGE, 'not_found');
            throw error;
          }
        },
      );
    sandboxStep(
      '/api/sandbox/payments/:paymentIntentId/confirm',
      'The sandbox card form (Stripe’s test cards); absent with Stripe and in production',
      z.object({ cardNumber: z.string().min(1).max(40) }),
      (sandbox, id, body) => sandbox.confirmWithCard(id, body.cardNumber),
      'invalid',
    );
    sandboxStep(
      '/api/sandbox/payments/:paymentIntentId/authenticate',
      'The sandbox’s 3-D Secure step for a card that asked for it: approve or fail; absent with Stripe and in production',
      z.object({ approve: z.boolean() }),
      (sandbox, id, body) => sandbox.completeAuthentication(id, body.approve),
      'conflict',
    );

    app.get(
      '/api/student/:id/purchases',
      {
        config: readers,
        schema: {
          tags: ['purchases'],
          summary: 'A student’s purchases, newest first (the student, their parent, their view-only login, admins)',
          params: z.object({ id: z.string().min(1).max(100) }),
          response: { 200: z.array(purchaseViewSchema), 403: messageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        await assertHolder(principalOf(request), request.params.id, 'read');
        return purchases.ofStudent(request.params.id);
      },
    );

    // Stripe's webhook: the signature covers the raw bytes, so this route alone keeps the body as a Buffer.
    await app.register(async (plugin) => {
      const scope = plugin.withTypeProvider<ZodTypeProvider>();
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.post(
        '/api/webhooks/stripe',
        {
          config: { roles: 'public', binaryBody: true },
          schema: {
            tags: ['purchases'],
            summary: 'Stripe’s events, verified on the raw body (400 on a bad signature), each event id handled once',
            response: { 200: z.object({ received: z.literal(true) }), 400: messageSchema },
          },
        },
        async (request) => {
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const signature = request.headers['stripe-signature'];
          let event: ReturnType<typeof payments.parseWebhook>;
          try {
            event = payments.parseWebhook(raw, typeof signature === 'string' ? signature : undefined);
          } catch (error) {
            if (error instanceof PaymentError) throw new DomainError('Invalid webhook signature', 'invalid');
            throw error;
          }
          await purchases.paymentEvent(event, app.clock.now());
          return { received: true as const };
        },
      );
    });
  };
