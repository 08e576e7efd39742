import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PaymentIntent } from '../../../adapters/payments/paymentPort.ts';
import { PaymentError } from '../../../adapters/payments/paymentPort.ts';
import { claimEnrollmentOnce, releaseEnrollment } from '../../../commands/accounts/enrollment.ts';
import { courseIdForPurchase } from '../../../commands/courses/courseHandlers.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../../../commands/kit/commandContext.ts';
import { compensating, stepOf } from '../../../commands/kit/processStep.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { holdingPromoUse } from '../../../commands/promoCodes/promoUses.ts';
import { catalogueReader } from '../../../commands/purchases/catalogueFacts.ts';
import {
  completePurchase,
  handlePaymentEvent,
  paymentIdempotencyKey,
  purchaseHandlers,
  purchaseIdFor,
  startPurchase,
} from '../../../commands/purchases/purchaseHandlers.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { priceFromCatalogue } from '../../../domain/purchases/checkoutCatalogue.ts';
import { FREE_PURCHASE, type PurchaseStartedData } from '../../../domain/purchases/purchase.ts';
import {
  confirmPaymentAnswerSchema,
  confirmPaymentBodySchema,
  createPaymentIntentBodySchema,
  paymentIntentAnswerSchema,
  paymentsConfigSchema,
  purchaseViewSchema,
} from '../../../domain/purchases/purchaseApi.ts';
import { purchasesOfStudent } from '../../../projections/purchases/queries.ts';
import { subjectHasListedTutor } from '../../../projections/tutors/queries.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';
import { checkAmounts, dollarsOf, holderCheck, promoFor } from './checkoutTerms.ts';

export { AMOUNT_MISMATCH } from './checkoutTerms.ts';
export const FREE_CLIENT_SECRET = 'free_purchase';
export const PURCHASE_NOT_FOUND_MESSAGE = 'Payment not found';
export const PAYMENT_NOT_COMPLETED = 'Your payment was not completed. Please try again.';
export const PAYMENT_PENDING = 'Your payment is still being processed.';
export const PURCHASE_DETAILS_MISMATCH = 'The payment does not match this enrollment';
export const NO_TUTOR_FOR_SUBJECT =
  'No tutor teaches this subject yet, so it cannot be bought. Please choose another subject, or contact us and we will tell you when one joins.';

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
const purchaseProjections = ['purchases'] as const;
/** The answer of confirm-payment shows the course: wait for the workflow that creates it. */
const fulfilmentProjections = ['purchases', 'purchase_fulfilment'] as const;
/** The courses read model, which shows the course the fulfilment created. */
const courseProjections = ['student_courses'] as const;

type CreateBody = z.output<typeof createPaymentIntentBodySchema>;

/** Checkout (spec part 2 §7): the payment intent, its confirmation, the provider's webhook, the sandbox card form, the student's purchases. */
export const purchaseRoutes =
  ({ sql, store, payments, accounts, config }: Pick<System, 'sql' | 'store' | 'payments' | 'accounts' | 'config'>): FastifyPluginAsyncZod =>
  async (app) => {
    const purchases = purchaseHandlers(store);
    const promos = promoCodeHandlers(store);
    const students = accounts.handlers;
    const readCatalogue = catalogueReader(store);

    const assertHolder = holderCheck(students.students);

    async function checkout(principal: Principal, body: CreateBody, ctx: CommandContext) {
      await assertHolder(principal, body.studentId, 'act');
      // Priced from the catalogue's streams at decision time (the decider checks the terms against them again).
      // The subject, package and level first (their refusals come before the code's).
      const listed = await readCatalogue(body.subjectId, body.packageId, null);
      priceFromCatalogue(listed);
      // Nothing is sold that no one can teach (issue 24): the directory's read model says whether a
      // listed tutor teaches the subject. It is a guard against a dead end, not a claim to hold: a
      // tutor who leaves after this check leaves the course to choose again (the dashboard's path).
      if (!(await subjectHasListedTutor(sql, body.subjectId))) throw new DomainError(NO_TUTOR_FOR_SUBJECT, 'conflict');
      const catalogue = { ...listed, promo: await promoFor(promos, body.promoCodeId, ctx.now) };
      const price = priceFromCatalogue(catalogue);
      const { quote, package: found } = price;
      const promoCodeId = price.promo?.promoCodeId ?? null;
      checkAmounts(body, quote, promoCodeId !== null);

      const purchaseId = purchaseIdFor(ctx.commandId);
      const step = stepOf(ctx);
      const terms: Omit<PurchaseStartedData, 'at'> = {
        purchaseId,
        studentId: body.studentId,
        purchasedBy: principal.userId,
        packageId: found.packageId,
        subjectId: body.subjectId,
        sessionCount: price.sessionCount,
        priceCents: price.priceCents,
        promo: price.promo,
        finalCents: price.finalCents,
        paymentIntentId: null,
        kind: 'purchase',
        courseId: null,
        checkoutSessionId: null,
      };
      const answer = (clientSecret: string, paymentIntentId: string | null) => ({
        clientSecret,
        paymentIntentId,
        purchaseId,
        amount: dollarsOf(quote.finalCents),
        packageName: found.name,
        sessionCount: found.sessionCount,
      });

      // The rules first, before any money moves: the student's slot, then the code's use.
      const enrollment = await claimEnrollmentOnce(
        students,
        { studentId: body.studentId, subjectId: body.subjectId, purchaseId, gradeTierId: price.gradeTierId },
        step,
      );
      const promoUse = promoCodeId ? { promoCodeId, claimId: purchaseId, userId: principal.userId, priceCents: quote.originalCents } : null;
      return compensating(
        () =>
          holdingPromoUse(promos, promoUse, step, async () => {
            if (quote.finalCents === 0) {
              await startPurchase(purchases, { terms, catalogue }, step('start'));
              const { position } = await completePurchase(purchases, { purchaseId, paymentIntentId: FREE_PURCHASE }, step('complete'));
              await readYourWrites(sql, purchaseProjections, position);
              return answer(FREE_CLIENT_SECRET, null);
            }
            const intent = await payments.createPaymentIntent({
              amountCents: quote.finalCents,
              currency: 'cad',
              idempotencyKey: paymentIdempotencyKey(purchaseId),
              description: found.name,
              metadata: { purchaseId, studentId: body.studentId, packageId: found.packageId, subjectId: body.subjectId },
              ...(body.email ? { customerEmail: body.email } : {}),
            });
            const { position } = await startPurchase(
              purchases,
              { terms: { ...terms, paymentIntentId: intent.id }, catalogue },
              step('start'),
            );
            await readYourWrites(sql, purchaseProjections, position);
            return answer(intent.clientSecret, intent.id);
          }),
        () => releaseEnrollment(students, { studentId: body.studentId, purchaseId }, step(`release-enrollment${enrollment.suffix}`)),
      );
    }

    /** The provider's intent and the purchase it pays, checked against the caller. */
    async function purchaseOfIntent(principal: Principal, paymentIntentId: string) {
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
      if (started.purchasedBy !== principal.userId) throw new DomainError(FORBIDDEN, 'forbidden');
      return { intent, started };
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
        const ctx = commandContext({
          commandId: deterministicUuid(`confirm-payment/${intent.id}`),
          actorId: principalOf(request).userId,
          actorRole: principalOf(request).role,
          correlationId: request.id,
          now: app.clock.now(),
        });
        const { position } = await completePurchase(
          purchases,
          { purchaseId: started.purchaseId, paymentIntentId: intent.id, card: intent.card },
          ctx,
        );
        // Completed by the webhook already: wait for what the log holds now.
        await readYourWrites(sql, fulfilmentProjections, position ?? (await store.committedPosition()), 10_000);
        // The fulfilment appended the course's events before its checkpoint moved: now the course read model.
        await readYourWrites(sql, courseProjections, await store.committedPosition(), 10_000);
        return {
          enrollmentData: {
            purchaseId: started.purchaseId,
            courseId: courseIdForPurchase(started.purchaseId),
            studentId: started.studentId,
            subjectId: started.subjectId,
            packageId: started.packageId,
          },
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
        return purchasesOfStudent(sql, request.params.id);
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
          await handlePaymentEvent(purchases, event, payments, app.clock.now());
          return { received: true as const };
        },
      );
    });
  };
