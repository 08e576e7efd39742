import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { listedTutorTeaching } from '../../../../tests/support/tutors.ts';
import { PaymentError } from '../../../adapters/payments/paymentPort.ts';
import { accountHandlers } from '../../../commands/accounts/accountDeps.ts';
import { courseIdForPurchase } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { createPromoCode } from '../../../commands/promoCodes/managePromoCodes.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { purchaseHandlers } from '../../../commands/purchases/purchaseHandlers.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { confirmPaymentAnswerSchema, paymentIntentAnswerSchema } from '../../../domain/purchases/purchaseApi.ts';
import { findCourse } from '../../../projections/courses/queries.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { findPurchase } from '../../../projections/purchases/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';
import { sweepAbandonedPurchases } from '../../../sagas/purchases/abandonedPurchases.ts';
import { AMOUNT_MISMATCH, FREE_CLIENT_SECRET } from './purchaseRoutes.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

/** Grade 11-12, 8 sessions: $570. */
let pkg: { id: string; cents: number };
/** Calculus (Grade 11-12): the package's level. */
let SUBJECT: string;
/** Every subject of the catalogue by name. */
let subjectIds: Map<string, { id: string; level: string }>;

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await waitForProjections(system.sql, ['packages'], await system.store.committedPosition(), 30_000);
  for (let i = 0; i < 300 && !pkg; i++) {
    const found = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 8);
    if (found) pkg = { id: found.id, cents: found.totalPriceCents };
    else await new Promise((r) => setTimeout(r, 100));
  }
  await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
  subjectIds = new Map((await listSubjects(system.sql)).map((s) => [s.name, { id: s.id, level: s.gradeLevel }]));
  SUBJECT = subjectIds.get('Calculus (Grade 11-12)')?.id as string;
  // Only a subject a listed tutor teaches is sold (issue 24).
  await listedTutorTeaching(system, 'purchase-routes', ['Calculus (Grade 11-12)']);
}, 60_000);

const admin = () => commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() });

async function promo(code: string, discountType: 'percentage' | 'fixed_amount', discountValue: string, maxUses: number | null = null) {
  const { promoCodeId } = await createPromoCode(
    promoCodeHandlers(system.store),
    { code, description: null, discountType, discountValue, maxUses, validFrom: null, validUntil: null, isActive: true },
    admin(),
  );
  return promoCodeId;
}

/** A student with a grade (and optionally a parent), signed in as its account holder. */
async function newStudent(options: { parentId?: string } = {}) {
  const studentId = randomUUID();
  const userId = `user-${studentId.slice(0, 8)}`;
  await system.accounts.handlers.students.handle(
    studentId,
    {
      type: 'CreateStudentProfile',
      data: {
        studentId,
        userId,
        parentId: options.parentId ?? null,
        firstName: 'Ann',
        lastName: 'Lee',
        grade: 'Grade 11',
        isUniversityStudent: false,
        schoolYearStartMonth: 9,
      },
    },
    commandContext({ now: system.clock.now() }),
  );
  const cookie = `tm_session=${(await system.signIns.create(userId, 'student')).token}`;
  return { studentId, userId, cookie };
}

const post = (url: string, cookie: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, headers: { cookie, ...headers }, payload });

const checkoutBody = (studentId: string, extra: Record<string, unknown> = {}) => ({
  amount: pkg.cents / 100,
  packageId: pkg.id,
  subjectId: SUBJECT,
  studentId,
  email: 'buyer@example.com',
  ...extra,
});

async function eventually<T>(read: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const countEvents = async (pattern: string) =>
  Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type LIKE ${pattern}`)[0]?.n);

describe('checkout', () => {
  it('refuses a forged amount (400) and records nothing', async () => {
    const { studentId, cookie } = await newStudent();
    const before = await Promise.all(['Purchase%', 'Enrollment%', 'PromoUse%'].map(countEvents));
    const forged = await post('/api/create-payment-intent', cookie, checkoutBody(studentId, { amount: 1 }));
    expect(forged.statusCode, forged.body).toBe(400);
    expect(forged.json()).toEqual({ message: AMOUNT_MISMATCH });
    const promoCodeId = await promo('HALF', 'percentage', '50');
    const forgedFinal = await post(
      '/api/create-payment-intent',
      cookie,
      checkoutBody(studentId, { promoCodeId, originalAmount: pkg.cents / 100, discountAmount: 500, finalAmount: 70, amount: 70 }),
    );
    expect(forgedFinal.statusCode, forgedFinal.body).toBe(400);
    expect(await Promise.all(['Purchase%', 'Enrollment%', 'PromoUse%'].map(countEvents))).toEqual(before);
  });

  it('a free purchase (100% code) completes at once and creates the course', async () => {
    const { studentId, cookie } = await newStudent();
    const promoCodeId = await promo('FREE100', 'percentage', '100');
    const res = await post(
      '/api/create-payment-intent',
      cookie,
      checkoutBody(studentId, { promoCodeId, amount: 0, originalAmount: pkg.cents / 100, discountAmount: pkg.cents / 100, finalAmount: 0 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = paymentIntentAnswerSchema.parse(res.json());
    expect(answer).toMatchObject({ clientSecret: FREE_CLIENT_SECRET, paymentIntentId: null, amount: 0, sessionCount: 8 });
    expect((await findPurchase(system.sql, answer.purchaseId))?.status).toBe('completed');
    const course = await eventually(() => findCourse(system.sql, courseIdForPurchase(answer.purchaseId)));
    expect(course).toMatchObject({ studentId, subjectId: SUBJECT, sessionsRemaining: 8 });
    const state = await eventually(async () => {
      const s = await promoCodeHandlers(system.store).promoCodes.load(promoCodeId);
      return s.redeemed.includes(answer.purchaseId) && s;
    });
    expect(state.claims).toEqual({});
  });

  it('the sandbox card 4242 pays; confirm-payment and the provider event both arrive → one course with its credits', async () => {
    const { studentId, cookie } = await newStudent();
    const promoCodeId = await promo('TEN', 'percentage', '10');
    const final = Math.round(pkg.cents * 0.9);
    const res = await post('/api/create-payment-intent', cookie, checkoutBody(studentId, { promoCodeId, finalAmount: final / 100 }), {
      'idempotency-key': `pay-${studentId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = paymentIntentAnswerSchema.parse(res.json());
    expect(answer.amount).toBe(final / 100);
    expect(answer.paymentIntentId).toBeTruthy();
    // The same Idempotency-Key: the same intent.
    const again = await post('/api/create-payment-intent', cookie, checkoutBody(studentId, { promoCodeId, finalAmount: final / 100 }), {
      'idempotency-key': `pay-${studentId}`,
    });
    expect(paymentIntentAnswerSchema.parse(again.json()).paymentIntentId).toBe(answer.paymentIntentId);

    const card = await post(`/api/sandbox/payments/${answer.paymentIntentId}/confirm`, cookie, { cardNumber: '4242 4242 4242 4242' });
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json()).toMatchObject({ status: 'succeeded' });
    const confirmBody = { paymentIntentId: answer.paymentIntentId, packageId: pkg.id, subjectId: SUBJECT, studentId, amount: final / 100 };
    const [first, second] = await Promise.all([
      post('/api/confirm-payment', cookie, confirmBody),
      post('/api/confirm-payment', cookie, confirmBody),
    ]);
    expect(first?.statusCode, first?.body).toBe(200);
    expect(second?.statusCode, second?.body).toBe(200);
    const confirmed = confirmPaymentAnswerSchema.parse(first?.json());
    expect(confirmed).toEqual({
      enrollmentData: {
        purchaseId: answer.purchaseId,
        courseId: courseIdForPurchase(answer.purchaseId),
        studentId,
        subjectId: SUBJECT,
        packageId: pkg.id,
      },
      redirectTo: '/tutor-selection',
    });
    const course = await findCourse(system.sql, confirmed.enrollmentData.courseId);
    expect(course).toMatchObject({ studentId, sessionsRemaining: 8 });
    // The outbox's event is consumed too; still one completion and one course.
    await eventually(async () => (await system.payments.outbox?.pendingEvents())?.length === 0);
    await waitForProjections(system.sql, ['purchase_fulfilment'], await system.store.committedPosition(), 10_000);
    const completions =
      await system.sql`SELECT 1 FROM es_events WHERE type = 'PurchaseCompleted' AND stream_id = ${`purchase-${answer.purchaseId}`}`;
    expect(completions.length).toBe(1);
    const enrolled =
      await system.sql`SELECT 1 FROM es_events WHERE type = 'CourseEnrolled' AND stream_id LIKE ${`%${confirmed.enrollmentData.courseId}`}`;
    expect(enrolled.length).toBe(1);

    const list = await app.inject({ method: 'GET', url: `/api/student/${studentId}/purchases`, headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject([
      { id: answer.purchaseId, status: 'completed', finalAmount: final / 100, subjectId: SUBJECT, sessionsRemaining: 8 },
    ]);
  });

  it('a payment that cannot start gives the slot and the promo use back; the same request retried holds both again', async () => {
    const { studentId, cookie } = await newStudent();
    const promoCodeId = await promo(`RETRY${randomUUID().slice(0, 6)}`.toUpperCase(), 'fixed_amount', '5');
    const payments = system.payments;
    const create = payments.createPaymentIntent.bind(payments);
    let failures = 1;
    payments.createPaymentIntent = async (input) => {
      if (failures-- > 0) throw new PaymentError('unavailable', 'The provider is down');
      return create(input);
    };
    const slots = async () => (await accountHandlers(system.store).students.load(studentId)).enrollments.map((e) => e.purchaseId);
    const uses = async () => Object.keys((await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).claims);
    try {
      const request = () =>
        post('/api/create-payment-intent', cookie, checkoutBody(studentId, { promoCodeId, amount: (pkg.cents - 500) / 100 }), {
          'idempotency-key': `retry-${studentId}`,
        });
      const failed = await request();
      expect(failed.statusCode, failed.body).toBeGreaterThanOrEqual(500);
      expect(await slots()).toEqual([]);
      expect(await uses()).toEqual([]);
      const retried = await request();
      expect(retried.statusCode, retried.body).toBe(200);
      const { purchaseId } = paymentIntentAnswerSchema.parse(retried.json());
      // Its first claim steps had been given back: the retry holds the slot and the code's use again.
      expect(await slots()).toEqual([purchaseId]);
      expect(await uses()).toEqual([purchaseId]);
    } finally {
      payments.createPaymentIntent = create;
    }
  });

  it('a declined card: the provider’s message, no course, the promo use and the slot released', async () => {
    const { studentId, cookie } = await newStudent();
    const promoCodeId = await promo('DECLINE5', 'fixed_amount', '5');
    const res = await post('/api/create-payment-intent', cookie, checkoutBody(studentId, { promoCodeId, amount: (pkg.cents - 500) / 100 }));
    expect(res.statusCode, res.body).toBe(200);
    const answer = paymentIntentAnswerSchema.parse(res.json());
    const card = await post(`/api/sandbox/payments/${answer.paymentIntentId}/confirm`, cookie, { cardNumber: '4000 0000 0000 0002' });
    expect(card.json()).toEqual({ status: 'requires_payment_method', message: 'Your card was declined.' });
    const confirm = await post('/api/confirm-payment', cookie, {
      paymentIntentId: answer.paymentIntentId,
      packageId: pkg.id,
      subjectId: SUBJECT,
      studentId,
      amount: (pkg.cents - 500) / 100,
    });
    expect(confirm.statusCode, confirm.body).toBe(402);
    expect(confirm.json()).toEqual({ message: 'Your card was declined.' });
    await eventually(async () => (await findPurchase(system.sql, answer.purchaseId))?.status === 'failed');
    const state = await eventually(async () => {
      const s = await promoCodeHandlers(system.store).promoCodes.load(promoCodeId);
      return !s.claims[answer.purchaseId] && s;
    });
    expect(state.redeemed).toEqual([]);
    await waitForProjections(system.sql, ['purchase_fulfilment', 'student_courses'], await system.store.committedPosition(), 10_000);
    expect(await findCourse(system.sql, courseIdForPurchase(answer.purchaseId))).toBeNull();
    // The slot is free again: the same student may buy the subject.
    const retry = await post('/api/create-payment-intent', cookie, checkoutBody(studentId));
    expect(retry.statusCode, retry.body).toBe(200);
  });

  it('a card that asks for authentication: approved it pays and enrols; failed it is refused and nothing is bought', async () => {
    const pay = async (approve: boolean) => {
      const { studentId, cookie } = await newStudent();
      const res = await post('/api/create-payment-intent', cookie, checkoutBody(studentId));
      expect(res.statusCode, res.body).toBe(200);
      const answer = paymentIntentAnswerSchema.parse(res.json());
      const card = await post(`/api/sandbox/payments/${answer.paymentIntentId}/confirm`, cookie, { cardNumber: '4000 0025 0000 3155' });
      expect(card.json()).toMatchObject({ status: 'requires_action' });
      // Someone else cannot answer the challenge.
      const stranger = await newStudent();
      const foreign = await post(`/api/sandbox/payments/${answer.paymentIntentId}/authenticate`, stranger.cookie, { approve: true });
      expect([403, 404]).toContain(foreign.statusCode);
      const auth = await post(`/api/sandbox/payments/${answer.paymentIntentId}/authenticate`, cookie, { approve });
      expect(auth.statusCode, auth.body).toBe(200);
      const confirm = await post('/api/confirm-payment', cookie, {
        paymentIntentId: answer.paymentIntentId,
        packageId: pkg.id,
        subjectId: SUBJECT,
        studentId,
        amount: pkg.cents / 100,
      });
      return { auth: auth.json() as { status: string; message?: string }, confirm, answer };
    };
    const approved = await pay(true);
    expect(approved.auth.status).toBe('succeeded');
    expect(approved.confirm.statusCode, approved.confirm.body).toBe(200);
    expect(await findCourse(system.sql, courseIdForPurchase(approved.answer.purchaseId))).toMatchObject({ sessionsRemaining: 8 });

    const failed = await pay(false);
    expect(failed.auth).toMatchObject({ status: 'requires_payment_method', message: expect.stringContaining('unable to authenticate') });
    expect(failed.confirm.statusCode, failed.confirm.body).toBe(402);
    await waitForProjections(system.sql, ['student_courses'], await system.store.committedPosition(), 10_000);
    expect(await findCourse(system.sql, courseIdForPurchase(failed.answer.purchaseId))).toBeNull();
  });

  it('a parent buys for their own student; not for someone else’s (403); a view-only login buys nothing', async () => {
    const parentId = `parent-${randomUUID().slice(0, 8)}`;
    const parentCookie = `tm_session=${(await system.signIns.create(parentId, 'parent')).token}`;
    const own = await newStudent({ parentId });
    const stranger = await newStudent();
    const ok = await post('/api/create-payment-intent', parentCookie, checkoutBody(own.studentId));
    expect(ok.statusCode, ok.body).toBe(200);
    const refused = await post('/api/create-payment-intent', parentCookie, checkoutBody(stranger.studentId));
    expect(refused.statusCode, refused.body).toBe(403);
    const otherStudent = await post('/api/create-payment-intent', own.cookie, checkoutBody(stranger.studentId));
    expect(otherStudent.statusCode).toBe(403);
    const viewOnly = `tm_session=${(await system.signIns.create(own.userId, 'student_secondary', own.studentId)).token}`;
    expect((await post('/api/create-payment-intent', viewOnly, checkoutBody(own.studentId))).statusCode).toBe(403);
    const list = await app.inject({
      method: 'GET',
      url: `/api/student/${stranger.studentId}/purchases`,
      headers: { cookie: parentCookie },
    });
    expect(list.statusCode).toBe(403);
  });

  it('12 concurrent free purchases with a code limited to 5 uses: exactly 5', async () => {
    const promoCodeId = await promo('FIVEFREE', 'percentage', '100', 5);
    const buyers = await Promise.all(Array.from({ length: 12 }, () => newStudent()));
    const results = await Promise.all(
      buyers.map((b) =>
        post('/api/create-payment-intent', b.cookie, checkoutBody(b.studentId, { promoCodeId, amount: 0, finalAmount: 0 })),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200).length, JSON.stringify(results.map((r) => r.body))).toBe(5);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409)).toBe(true);
    const completed =
      await system.sql`SELECT 1 FROM es_events WHERE type = 'PurchaseCompleted' AND data->>'paymentIntentId' = 'free' AND stream_id IN (
      SELECT stream_id FROM es_events WHERE type = 'PurchaseStarted' AND data->'promo'->>'promoCodeId' = ${promoCodeId})`;
    expect(completed.length).toBe(5);
  }, 60_000);

  it('a checkout left unpaid past the payment window is abandoned: the intent cancelled, the promo use and the slot given back', async () => {
    const { studentId, cookie } = await newStudent();
    const promoCodeId = await promo('LATE5', 'fixed_amount', '5');
    const res = await post('/api/create-payment-intent', cookie, checkoutBody(studentId, { promoCodeId, amount: (pkg.cents - 500) / 100 }));
    const answer = paymentIntentAnswerSchema.parse(res.json());
    const deps = { sql: system.sql, purchases: purchaseHandlers(system.store), payments: system.payments };
    expect(await sweepAbandonedPurchases(deps, system.clock.now())).toBe(0);
    const later = new Date(Date.now() + 31 * 60_000);
    expect(await sweepAbandonedPurchases(deps, later)).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await findPurchase(system.sql, answer.purchaseId))?.status === 'abandoned');
    expect((await system.payments.retrievePaymentIntent(answer.paymentIntentId as string)).status).toBe('canceled');
    await eventually(async () => !(await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).claims[answer.purchaseId]);
    await waitForProjections(system.sql, ['purchase_fulfilment'], await system.store.committedPosition(), 10_000);
    const card = await post(`/api/sandbox/payments/${answer.paymentIntentId}/confirm`, cookie, { cardNumber: '4242424242424242' });
    expect(card.statusCode).toBe(400);
    const again = await post('/api/create-payment-intent', cookie, checkoutBody(studentId));
    expect(again.statusCode, again.body).toBe(200);
  });

  it('the Stripe webhook refuses a bad signature (400)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=bad' },
      payload: '{"id":"evt_1"}',
    });
    expect(res.statusCode, res.body).toBe(400);
  });
});
