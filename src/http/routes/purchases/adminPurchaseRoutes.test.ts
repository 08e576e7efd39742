import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { listedTutorTeaching } from '../../../../tests/support/tutors.ts';
import { PaymentError } from '../../../adapters/payments/paymentPort.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { courseHandlers, courseIdForPurchase } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { createPromoCode } from '../../../commands/promoCodes/managePromoCodes.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { adminPurchasePageSchema, refundAnswerSchema, refundQuoteSchema } from '../../../domain/purchases/adminPurchaseApi.ts';
import { purchaseStreamId } from '../../../domain/purchases/purchase.ts';
import { paymentIntentAnswerSchema } from '../../../domain/purchases/purchaseApi.ts';
import { ALREADY_REFUNDED, REFUND_NOT_COMPLETED, REFUND_UNDER_WAY } from '../../../domain/purchases/purchaseDecider.ts';
import { findCourse } from '../../../projections/courses/queries.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { findPurchase } from '../../../projections/purchases/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

/** Grade 11-12, 8 sessions. */
let pkg: { id: string; cents: number };
/** A subject of the seeded catalogue (the list shows its name). */
let SUBJECT: string;
let admin: string;
let finance: string;

async function staff(role: 'admin' | 'finance') {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: `refunds-${role}`,
    email: `refunds-${role}@example.com`,
    firstName: 'Re',
    lastName: 'Fund',
    password: 'Refunds-staff-2026!',
    role,
  });
  return `tm_session=${(await system.signIns.create(userId, role)).token}`;
}

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
  // A subject of the package's level (Grade 11-12): checkout prices by the subject's level.
  const [subject] = await system.sql<{ id: string }[]>`SELECT id FROM subjects WHERE name = 'Calculus (Grade 11-12)'`;
  SUBJECT = subject?.id as string;
  // Only a subject a listed tutor teaches is sold (issue 24).
  await listedTutorTeaching(system, 'admin-purchases', ['Calculus (Grade 11-12)']);
  admin = await staff('admin');
  finance = await staff('finance');
}, 60_000);

async function eventually<T>(read: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const post = (url: string, cookie: string, payload: object, headers: Record<string, string> = {}, on = app) =>
  on.inject({ method: 'POST', url, headers: { cookie, ...headers }, payload });
const get = (url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });
const refund = (purchaseId: string, payload: object = { reason: 'The family moved away' }, on = app, headers = {}) =>
  post(`/api/admin/purchases/${purchaseId}/refund`, admin, payload, headers, on);

async function promo(code: string, percent: string) {
  const { promoCodeId } = await createPromoCode(
    promoCodeHandlers(system.store),
    {
      code,
      description: null,
      discountType: 'percentage',
      discountValue: percent,
      maxUses: null,
      validFrom: null,
      validUntil: null,
      isActive: true,
    },
    commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() }),
  );
  return promoCodeId;
}

/** A student of their own (a unique last name to search by), signed in as its account holder. */
async function newStudent() {
  const studentId = randomUUID();
  const userId = `user-${studentId.slice(0, 8)}`;
  const lastName = `Refundson${studentId.slice(0, 6)}`;
  await system.accounts.handlers.students.handle(
    studentId,
    {
      type: 'CreateStudentProfile',
      data: {
        studentId,
        userId,
        parentId: null,
        firstName: 'Rita',
        lastName,
        grade: 'Grade 11',
        isUniversityStudent: false,
        schoolYearStartMonth: 9,
      },
    },
    commandContext({ now: system.clock.now() }),
  );
  const cookie = `tm_session=${(await system.signIns.create(userId, 'student')).token}`;
  return { studentId, cookie, lastName };
}

/** Pays for the 8-session package through the sandbox (card 4242), or free with a 100% code; the course exists after. */
async function buy(options: { percentOff?: number } = {}) {
  const student = await newStudent();
  const percent = options.percentOff ?? 0;
  const promoCodeId = percent ? await promo(`R${randomUUID().slice(0, 8).toUpperCase()}`, String(percent)) : null;
  const finalCents = Math.round((pkg.cents * (100 - percent)) / 100);
  const res = await post('/api/create-payment-intent', student.cookie, {
    amount: finalCents / 100,
    packageId: pkg.id,
    subjectId: SUBJECT,
    studentId: student.studentId,
    ...(promoCodeId ? { promoCodeId, originalAmount: pkg.cents / 100, finalAmount: finalCents / 100 } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  const answer = paymentIntentAnswerSchema.parse(res.json());
  if (answer.paymentIntentId) {
    const card = await post(`/api/sandbox/payments/${answer.paymentIntentId}/confirm`, student.cookie, { cardNumber: '4242424242424242' });
    expect(card.json()).toMatchObject({ status: 'succeeded' });
    const confirm = await post('/api/confirm-payment', student.cookie, {
      paymentIntentId: answer.paymentIntentId,
      packageId: pkg.id,
      subjectId: SUBJECT,
      studentId: student.studentId,
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
  }
  const courseId = courseIdForPurchase(answer.purchaseId);
  await eventually(() => findCourse(system.sql, courseId));
  if (promoCodeId) {
    await eventually(async () => (await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).redeemed.includes(answer.purchaseId));
  }
  const discountCents = pkg.cents - finalCents;
  return {
    ...student,
    purchaseId: answer.purchaseId,
    paymentIntentId: answer.paymentIntentId,
    courseId,
    finalCents,
    discountCents,
    promoCodeId,
  };
}

/** Sessions on the course: `used` completed, `booked` still reserved. */
async function takeCredits(courseId: string, used: number, booked: number) {
  const courses = courseHandlers(system.store).courses;
  const ctx = () => commandContext({ actorRole: 'system', now: system.clock.now() });
  await courses.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId: 'tutor-1', tutorQualified: true } }, ctx());
  for (let i = 0; i < used + booked; i++) {
    const sessionId = `${courseId}-s${i}`;
    await courses.handle(courseId, { type: 'ReserveCredit', data: { courseId, sessionId } }, ctx());
    if (i < used) await courses.handle(courseId, { type: 'ConsumeCredit', data: { courseId, sessionId } }, ctx());
  }
  await waitForProjections(system.sql, ['student_courses'], await system.store.committedPosition(), 10_000);
}

const providerRefunds = (paymentIntentId: string | null) =>
  system.sql<{ amount_cents: number }[]>`SELECT amount_cents FROM sandbox_refunds WHERE payment_intent_id = ${paymentIntentId}`;

describe('refunding a purchase', () => {
  it('refunds the unused sessions share of what was paid; used and booked sessions stay; the promo redemption stays with the kept share of its discount', async () => {
    const bought = await buy({ percentOff: 10 });
    await takeCredits(bought.courseId, 3, 1);
    const expectedCents = Math.floor((bought.finalCents * 4) / 8);

    const quote = await get(`/api/admin/purchases/${bought.purchaseId}/refund`, admin);
    expect(quote.statusCode, quote.body).toBe(200);
    expect(refundQuoteSchema.parse(quote.json())).toEqual({ purchaseId: bought.purchaseId, amount: expectedCents / 100, credits: 4 });

    const res = await refund(bought.purchaseId, { reason: '  The family moved away ' }, app, {
      'idempotency-key': `refund-${bought.purchaseId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = refundAnswerSchema.parse(res.json());
    expect(answer).toMatchObject({ purchaseId: bought.purchaseId, amount: expectedCents / 100, creditsRemoved: 4 });
    expect(answer.purchase).toMatchObject({
      status: 'refunded',
      sessionsUsed: 3,
      sessionsRemaining: 0,
      refund: { amount: expectedCents / 100, credits: 4, reason: 'The family moved away' },
    });
    expect(await providerRefunds(bought.paymentIntentId)).toEqual([{ amount_cents: expectedCents }]);
    // The booked session keeps its credit.
    expect(await findCourse(system.sql, bought.courseId)).toMatchObject({ sessionsRemaining: 0 });
    const course = await courseHandlers(system.store).courses.load(bought.courseId);
    expect([course.totalSessions, course.reserved.length, course.used.length]).toEqual([4, 1, 3]);

    // The family kept 4 of the 8 sessions: the redemption stays, still counted, with the discount
    // of what was kept (the refunded half of the discount goes, rounded down as the refund is).
    const promoState = await eventually(async () => {
      const s = await promoCodeHandlers(system.store).promoCodes.load(bought.promoCodeId as string);
      return s.refunded.includes(bought.purchaseId) && s;
    });
    expect(promoState.redeemed).toContain(bought.purchaseId);
    const [redemption] = await eventually(async () => {
      const rows = await system.sql<{ discount_cents: number }[]>`
        SELECT discount_cents FROM promo_redemptions WHERE purchase_id = ${bought.purchaseId}`;
      return rows.length === 1 && rows[0]?.discount_cents !== bought.discountCents && rows;
    });
    expect(redemption?.discount_cents).toBe(bought.discountCents - Math.floor(bought.discountCents / 2));
    const [code] = await system.sql<{ current_uses: number }[]>`SELECT current_uses FROM promo_codes WHERE id = ${bought.promoCodeId}`;
    expect(code?.current_uses).toBe(1);

    // The same request again answers the same; another request is refused; nothing refunded twice.
    const replay = await refund(bought.purchaseId, { reason: '  The family moved away ' }, app, {
      'idempotency-key': `refund-${bought.purchaseId}`,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(res.json());
    const twice = await refund(bought.purchaseId);
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json()).toEqual({ message: ALREADY_REFUNDED });
    expect(await providerRefunds(bought.paymentIntentId)).toHaveLength(1);
  });

  it("a refund made at the provider, not in Topmark, is recorded once and raises an alert; Topmark's own refunds raise none", async () => {
    const outsideAlerts = (purchaseId: string) =>
      system.sql<{ severity: string; title: string; description: string }[]>`
        SELECT severity, title, description FROM alerts WHERE purchase_id = ${purchaseId} AND type = 'refund_outside_topmark'`;
    // Refunded in the provider's dashboard: Topmark hears of it through the provider's event.
    const bought = await buy();
    await system.payments.refund({
      paymentIntentId: bought.paymentIntentId as string,
      amountCents: 1_000,
      idempotencyKey: `dashboard-${bought.purchaseId}`,
    });
    const [alert] = await eventually(async () => {
      const rows = await outsideAlerts(bought.purchaseId);
      return rows.length > 0 && rows;
    });
    expect(alert).toMatchObject({ severity: 'high', title: 'A payment was refunded outside Topmark' });
    expect(alert?.description).toContain(`$10.00 of $${(bought.finalCents / 100).toFixed(2)} refunded`);
    const noted = (await system.store.readStream(purchaseStreamId(bought.purchaseId))).filter(
      (e) => e.type === 'PurchaseRefundedAtProvider',
    );
    expect(noted.map((e) => e.data)).toMatchObject([{ amountRefundedCents: 1_000, unexplainedCents: 1_000 }]);
    // The family's sessions are not touched: an admin decides.
    expect(await findCourse(system.sql, bought.courseId)).toMatchObject({ sessionsRemaining: 8 });
    // A refund through Topmark afterwards gives back only what is left of the payment, and its own
    // report (the provider's total now counts both) raises nothing more.
    const rest = await refund(bought.purchaseId);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(refundAnswerSchema.parse(rest.json())).toMatchObject({ amount: (bought.finalCents - 1_000) / 100, creditsRemoved: 8 });
    expect((await providerRefunds(bought.paymentIntentId)).map((r) => r.amount_cents).sort((a, b) => a - b)).toEqual(
      [1_000, bought.finalCents - 1_000].sort((a, b) => a - b),
    );

    // Refunded through Topmark: the provider's event about it is handled and raises nothing.
    const other = await buy();
    expect((await refund(other.purchaseId)).statusCode).toBe(200);
    await eventually(async () => {
      const [row] = await system.sql<{ pending: number }[]>`
        SELECT count(*)::int AS pending FROM sandbox_payment_events
        WHERE type = 'charge.refunded' AND payload::text LIKE ${`%${other.paymentIntentId}%`} AND delivered_at IS NULL`;
      const [seen] = await system.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM sandbox_payment_events WHERE type = 'charge.refunded' AND payload::text LIKE ${`%${other.paymentIntentId}%`}`;
      return row?.pending === 0 && (seen?.n ?? 0) > 0;
    });
    await waitForProjections(system.sql, ['alerts'], await system.store.committedPosition(), 10_000);
    expect(await outsideAlerts(other.purchaseId)).toEqual([]);
    expect(await outsideAlerts(bought.purchaseId)).toHaveLength(1);
  });

  it('10 concurrent refunds make one refund at the provider', async () => {
    const bought = await buy();
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(bought.purchaseId)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect([ALREADY_REFUNDED, REFUND_UNDER_WAY]).toContain(a.json().message);
    expect(await providerRefunds(bought.paymentIntentId)).toEqual([{ amount_cents: bought.finalCents }]);
    expect(await findCourse(system.sql, bought.courseId)).toMatchObject({ sessionsRemaining: 0 });
  });

  it('a provider failure changes nothing: the credits come back, the purchase stays completed, a retry refunds', async () => {
    const bought = await buy();
    await takeCredits(bought.courseId, 2, 0);
    // The provider fails at its edge: the payment adapter the purchases module holds refuses this refund.
    const down = vi.spyOn(system.payments, 'refund').mockRejectedValue(new PaymentError('unavailable', 'The provider is down'));
    try {
      const res = await refund(bought.purchaseId, { reason: 'Unhappy' });
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json().message).toMatch(/could not refund.*Nothing was changed/);
      expect(down).toHaveBeenCalledTimes(1);
    } finally {
      down.mockRestore();
    }
    expect(await providerRefunds(bought.paymentIntentId)).toEqual([]);
    await waitForProjections(system.sql, ['student_courses', 'purchases'], await system.store.committedPosition(), 10_000);
    expect(await findCourse(system.sql, bought.courseId)).toMatchObject({ sessionsRemaining: 6 });
    expect((await findPurchase(system.sql, bought.purchaseId))?.status).toBe('completed');

    const retry = await refund(bought.purchaseId, { reason: 'Unhappy' });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(refundAnswerSchema.parse(retry.json())).toMatchObject({
      creditsRemoved: 6,
      amount: Math.floor((bought.finalCents * 6) / 8) / 100,
    });
    expect(await providerRefunds(bought.paymentIntentId)).toHaveLength(1);
  });

  it('a free purchase refunds nothing at the provider but still removes its credits', async () => {
    const bought = await buy({ percentOff: 100 });
    expect(bought.paymentIntentId).toBeNull();
    const res = await refund(bought.purchaseId);
    expect(res.statusCode, res.body).toBe(200);
    expect(refundAnswerSchema.parse(res.json())).toMatchObject({
      amount: 0,
      creditsRemoved: 8,
      purchase: { status: 'refunded', sessionsRemaining: 0 },
    });
    expect(
      await system.sql`SELECT 1 FROM sandbox_refunds r JOIN sandbox_payment_intents i ON i.id = r.payment_intent_id WHERE i.metadata->>'purchaseId' = ${bought.purchaseId}`,
    ).toHaveLength(0);
  });

  it('refuses bad input and other roles, changing nothing', async () => {
    const bought = await buy();
    const count = async () =>
      Number(
        (await system.sql<{ n: string }[]>`SELECT count(*) AS n FROM es_events WHERE stream_id = ${`purchase-${bought.purchaseId}`}`)[0]?.n,
      );
    const before = await count();
    expect((await refund(bought.purchaseId, {})).statusCode).toBe(400);
    expect((await refund(bought.purchaseId, { reason: '   ' })).statusCode).toBe(400);
    expect((await refund(bought.purchaseId, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    // The amount and credits are the server's: a forged one is refused.
    const forged = await refund(bought.purchaseId, { reason: 'ok', amount: 999_999, creditsRemoved: 99 });
    expect(forged.statusCode, forged.body).toBe(400);
    expect((await post(`/api/admin/purchases/${bought.purchaseId}/refund`, finance, { reason: 'finance tries' })).statusCode).toBe(403);
    expect((await get(`/api/admin/purchases/${bought.purchaseId}/refund`, finance)).statusCode).toBe(403);
    expect((await post(`/api/admin/purchases/${bought.purchaseId}/refund`, bought.cookie, { reason: 'me' })).statusCode).toBe(403);
    expect((await refund(randomUUID())).statusCode).toBe(404);
    expect(await count()).toBe(before);
    expect(await providerRefunds(bought.paymentIntentId)).toEqual([]);

    // A checkout never paid is not refundable.
    const student = await newStudent();
    const pending = await post('/api/create-payment-intent', student.cookie, {
      amount: pkg.cents / 100,
      packageId: pkg.id,
      subjectId: SUBJECT,
      studentId: student.studentId,
    });
    const pendingId = paymentIntentAnswerSchema.parse(pending.json()).purchaseId;
    const pendingRefund = await refund(pendingId);
    expect(pendingRefund.statusCode).toBe(409);
    expect(pendingRefund.json()).toEqual({ message: REFUND_NOT_COMPLETED });
    // Listed as asked, never as paid: nothing was charged.
    const listed = adminPurchasePageSchema
      .parse((await get(`/api/admin/purchases?status=pending&pageSize=100`, admin)).json())
      .rows.find((r) => r.id === pendingId);
    expect(listed).toMatchObject({ status: 'pending', amountPaid: 0, amountAsked: pkg.cents / 100 });
  });
});

describe('the purchases list', () => {
  let bought: Awaited<ReturnType<typeof buy>>;
  beforeAll(async () => {
    bought = await buy({ percentOff: 10 });
    await takeCredits(bought.courseId, 1, 1);
  }, 60_000);

  it('finance and admins page through purchases with names, subject, package, money, code and sessions', async () => {
    for (const cookie of [admin, finance]) {
      const res = await get(`/api/admin/purchases?search=${bought.lastName}`, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const page = adminPurchasePageSchema.parse(res.json());
      expect(page.total).toBe(1);
      expect(page.rows[0]).toMatchObject({
        id: bought.purchaseId,
        studentName: `Rita ${bought.lastName}`,
        subjectId: SUBJECT,
        subjectName: expect.stringMatching(/\w/),
        packageName: expect.stringMatching(/\w/),
        amountPaid: bought.finalCents / 100,
        amountAsked: bought.finalCents / 100,
        promoCode: expect.stringMatching(/^R/),
        status: 'completed',
        sessionCount: 8,
        sessionsUsed: 1,
        sessionsRemaining: 6,
        refund: null,
      });
    }
    expect((await get('/api/admin/purchases', bought.cookie)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/admin/purchases' })).statusCode).toBe(401);
  });

  it('filters by status and dates, sorts and pages on the server, and refuses bad parameters', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const ids = async (query: string) =>
      adminPurchasePageSchema.parse((await get(`/api/admin/purchases?${query}`, admin)).json()).rows.map((r) => r.id);
    expect(await ids(`search=${bought.lastName}&status=completed&from=${today}&to=${today}`)).toEqual([bought.purchaseId]);
    expect(await ids(`search=${bought.lastName}&status=refunded`)).toEqual([]);
    expect(await ids(`search=${bought.lastName}&from=2199-01-01`)).toEqual([]);
    const page = adminPurchasePageSchema.parse(
      (await get('/api/admin/purchases?sort=amountPaid&order=asc&pageSize=2&page=1', admin)).json(),
    );
    expect(page.rows.length).toBeLessThanOrEqual(2);
    expect(page.total).toBeGreaterThan(2);
    const amounts = page.rows.map((r) => r.amountPaid);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    // A search is text, never a pattern: `%` finds nothing here.
    expect(await ids('search=%25%25%25')).toEqual([]);
    for (const bad of ['status=lost', 'from=yesterday', 'sort=password', 'pageSize=1000', `search=${'x'.repeat(201)}`]) {
      expect((await get(`/api/admin/purchases?${bad}`, admin)).statusCode, bad).toBe(400);
    }
  });
});
