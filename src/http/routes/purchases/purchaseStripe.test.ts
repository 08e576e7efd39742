import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripeServer } from '../../../../tests/fakes/fakeStripeServer.ts';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { listedTutorTeaching } from '../../../../tests/support/tutors.ts';
import { STRIPE_API_VERSION, StripePayments } from '../../../adapters/payments/stripe/stripePayments.ts';
import { courseHandlers, courseIdForPurchase } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { paymentIntentAnswerSchema, repurchaseAnswerSchema } from '../../../domain/purchases/purchaseApi.ts';
import { findCourse } from '../../../projections/courses/queries.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { findPurchase } from '../../../projections/purchases/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';
import { buildApp } from '../../app.ts';

let fake: FakeStripeServer;
let browser: Stripe;
let system: TestSystem;
let app: FastifyInstance;
let pkg: { id: string; cents: number };
/** Physics (Grade 11-12): the package's level. */
let SUBJECT: string;
/** Every webhook delivered so far, to replay. */
const delivered: { body: string; signature: string; type: string }[] = [];

beforeAll(async () => {
  fake = await FakeStripeServer.start();
  const payments = new StripePayments({
    secretKey: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    maxNetworkRetries: 0,
    ...fake.connection,
  });
  browser = new Stripe(fake.secretKey, { apiVersion: STRIPE_API_VERSION, maxNetworkRetries: 0, ...fake.connection });
  system = await createTestSystem('all', {}, { payments });
  app = await buildApp(system, { logger: false });
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await waitForProjections(system.sql, ['packages'], await system.store.committedPosition(), 30_000);
  for (let i = 0; i < 300 && !pkg; i++) {
    const found = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 12);
    if (found) pkg = { id: found.id, cents: found.totalPriceCents };
    else await new Promise((r) => setTimeout(r, 100));
  }
  await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
  SUBJECT = (await listSubjects(system.sql)).find((s) => s.name === 'Physics (Grade 11-12)')?.id as string;
  // Only a subject a listed tutor teaches is sold (issue 24).
  await listedTutorTeaching(system, 'purchase-stripe', ['Physics (Grade 11-12)']);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await system?.dispose();
  await fake?.close();
});

async function newStudent() {
  const studentId = randomUUID();
  const userId = `user-${studentId.slice(0, 8)}`;
  await system.accounts.handlers.students.handle(
    studentId,
    {
      type: 'CreateStudentProfile',
      data: {
        studentId,
        userId,
        parentId: null,
        firstName: 'Bo',
        lastName: 'Li',
        grade: 'Grade 12',
        isUniversityStudent: false,
        schoolYearStartMonth: 9,
      },
    },
    commandContext({ now: system.clock.now() }),
  );
  return { studentId, cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}` };
}

const post = (url: string, cookie: string, payload: object) => app.inject({ method: 'POST', url, headers: { cookie }, payload });

async function startCheckout() {
  const buyer = await newStudent();
  const res = await post('/api/create-payment-intent', buyer.cookie, {
    amount: pkg.cents / 100,
    packageId: pkg.id,
    subjectId: SUBJECT,
    studentId: buyer.studentId,
  });
  expect(res.statusCode, res.body).toBe(200);
  const answer = paymentIntentAnswerSchema.parse(res.json());
  const confirm = () =>
    post('/api/confirm-payment', buyer.cookie, {
      paymentIntentId: answer.paymentIntentId,
      packageId: pkg.id,
      subjectId: SUBJECT,
      studentId: buyer.studentId,
      amount: pkg.cents / 100,
    });
  return { ...buyer, answer, intentId: answer.paymentIntentId as string, confirm };
}

/** Posts Stripe's fresh events to the webhook (and, with `replay`, every earlier one again). */
async function deliverWebhooks(replay = false) {
  delivered.push(...fake.deliveries());
  const events = replay ? delivered : delivered.slice(-10);
  for (const d of events) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': d.signature },
      payload: d.body,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

const count = async (type: string, streamId: string) =>
  (await system.sql`SELECT 1 FROM es_events WHERE type = ${type} AND stream_id = ${streamId}`).length;

/** The card the completion recorded (for the receipt), as Stripe's expanded charge named it. */
const completedCard = async (purchaseId: string) => {
  const [row] = await system.sql<{ data: { card?: unknown } }[]>`
    SELECT data FROM es_events WHERE type = 'PurchaseCompleted' AND stream_id = ${`purchase-${purchaseId}`}`;
  return row?.data.card;
};

async function oneCourse(purchaseId: string) {
  await waitForProjections(system.sql, ['purchase_fulfilment', 'student_courses'], await system.store.committedPosition(), 10_000);
  expect(await count('PurchaseCompleted', `purchase-${purchaseId}`)).toBe(1);
  const courseId = courseIdForPurchase(purchaseId);
  expect((await system.sql`SELECT 1 FROM es_events WHERE type = 'CourseEnrolled' AND stream_id LIKE ${`%${courseId}`}`).length).toBe(1);
  expect(await findCourse(system.sql, courseId)).toMatchObject({ sessionsRemaining: 12 });
}

describe('checkout with Stripe (a local server speaking its wire format)', () => {
  it('the webhook before confirm-payment, replayed: one completion, one course', async () => {
    const { answer, intentId, confirm } = await startCheckout();
    expect(answer.clientSecret).toContain(intentId);
    await browser.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });
    await deliverWebhooks();
    await deliverWebhooks(true);
    const res = await confirm();
    expect(res.statusCode, res.body).toBe(200);
    await oneCourse(answer.purchaseId);
    // The webhook's intent names its charge by id only: the card was asked of Stripe.
    expect(await completedCard(answer.purchaseId)).toEqual({ brand: 'visa', last4: '4242' });
  });

  it('confirm-payment before the webhook: one completion, one course', async () => {
    const { answer, intentId, confirm } = await startCheckout();
    await browser.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });
    const res = await confirm();
    expect(res.statusCode, res.body).toBe(200);
    await deliverWebhooks(true);
    await oneCourse(answer.purchaseId);
  });

  it('a declined card: confirm-payment 402 with Stripe’s message, the webhook fails the purchase, no course', async () => {
    const { answer, intentId, confirm } = await startCheckout();
    await browser.paymentIntents.confirm(intentId, { payment_method: 'pm_card_chargeDeclined' }).catch(() => {});
    const res = await confirm();
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toEqual({ message: 'Your card was declined.' });
    await deliverWebhooks();
    await waitForProjections(
      system.sql,
      ['purchases', 'purchase_fulfilment', 'student_courses'],
      await system.store.committedPosition(),
      10_000,
    );
    expect((await findPurchase(system.sql, answer.purchaseId))?.status).toBe('failed');
    expect(await findCourse(system.sql, courseIdForPurchase(answer.purchaseId))).toBeNull();
  });

  it('a bad signature is 400 and changes nothing', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: JSON.stringify({ id: 'evt_forged', type: 'payment_intent.succeeded' }),
    });
    expect(res.statusCode, res.body).toBe(400);
  });
});

describe('repurchase with Stripe Checkout (the local server)', () => {
  it('a Checkout Session is paid; the webhook, replayed, and verify credit the course once', async () => {
    const buyer = await newStudent();
    const four = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 4)!;
    const courseId = randomUUID();
    const courses = courseHandlers(system.store).courses;
    const studentId = buyer.studentId;
    await courses.handle(
      courseId,
      {
        type: 'EnrollCourse',
        data: { courseId, studentId, subjectId: SUBJECT, packageId: four.id, purchaseId: `first-${courseId}`, credits: 1 },
      },
      commandContext({ now: system.clock.now() }),
    );
    await courses.handle(
      courseId,
      { type: 'ChooseCourseTutor', data: { courseId, tutorId: 't-1', tutorQualified: true } },
      commandContext({ now: system.clock.now() }),
    );
    await courses.handle(
      courseId,
      { type: 'ReserveCredit', data: { courseId, sessionId: 's-1' } },
      commandContext({ now: system.clock.now() }),
    );
    await courses.handle(
      courseId,
      { type: 'ConsumeCredit', data: { courseId, sessionId: 's-1' } },
      commandContext({ now: system.clock.now() }),
    );
    await waitForProjections(system.sql, ['student_courses', 'students'], await system.store.committedPosition(), 10_000);

    const res = await post(`/api/student/${studentId}/courses/${courseId}/repurchase`, buyer.cookie, {
      packageId: four.id,
      email: '',
      finalAmount: four.totalPriceCents / 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = repurchaseAnswerSchema.parse(res.json());
    expect(answer.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sessionId = answer.checkoutUrl.split('/').at(-1)!;
    const created = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.form.metadata);
    expect(created?.form).toMatchObject({
      mode: 'payment',
      success_url: expect.stringContaining('/checkout?repurchase=true&session_id={CHECKOUT_SESSION_ID}'),
      metadata: { purchaseId: answer.purchaseId, kind: 'repurchase', courseId },
    });
    expect(Number(created?.form.expires_at)).toBeGreaterThan(Date.now() / 1000 + 30 * 60 - 60);

    const verify = () => app.inject({ method: 'GET', url: `/api/repurchase/verify/${sessionId}`, headers: { cookie: buyer.cookie } });
    expect((await verify()).json()).toEqual({ processed: false });
    fake.completeCheckoutSession(sessionId);
    await deliverWebhooks();
    await deliverWebhooks(true);
    expect((await verify()).json()).toEqual({ processed: true });
    await waitForProjections(system.sql, ['purchase_fulfilment', 'student_courses'], await system.store.committedPosition(), 10_000);
    expect(await count('PurchaseCompleted', `purchase-${answer.purchaseId}`)).toBe(1);
    expect(await completedCard(answer.purchaseId)).toEqual({ brand: 'visa', last4: '4242' });
    expect(await count('CourseCreditsAdded', `course-${courseId}`)).toBe(1);
    expect(await findCourse(system.sql, courseId)).toMatchObject({ sessionsRemaining: 4 });
  });
});
