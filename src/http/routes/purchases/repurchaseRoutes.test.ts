import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { listedTutorTeaching } from '../../../../tests/support/tutors.ts';
import { PaymentError } from '../../../adapters/payments/paymentPort.ts';
import type { SandboxPayments } from '../../../adapters/payments/sandbox/sandboxPayments.ts';
import { courseHandlers } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { createPromoCode } from '../../../commands/promoCodes/managePromoCodes.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { purchaseHandlers } from '../../../commands/purchases/purchaseHandlers.ts';
import { addSubject, setSubjectActive } from '../../../commands/subjects/manageSubjects.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { subjectHandlers } from '../../../commands/subjects/subjectHandlers.ts';
import { REPURCHASE_ALREADY_PENDING, REPURCHASE_BEING_PAID } from '../../../domain/courses/courseDecider.ts';
import { SUBJECT_NOT_OFFERED } from '../../../domain/purchases/checkoutCatalogue.ts';
import { repurchaseAnswerSchema, sandboxCheckoutResultSchema, sandboxCheckoutSchema } from '../../../domain/purchases/purchaseApi.ts';
import {
  REPURCHASE_COURSE_ENDED,
  REPURCHASE_COURSE_NOT_FOUND,
  REPURCHASE_NOT_YET,
  REPURCHASE_WRONG_TIER,
} from '../../../domain/purchases/purchaseDecider.ts';
import { findCourse } from '../../../projections/courses/queries.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { findPurchase } from '../../../projections/purchases/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';
import { sweepAbandonedPurchases } from '../../../sagas/purchases/abandonedPurchases.ts';
import { AMOUNT_MISMATCH } from './checkoutTerms.ts';
import { NO_TUTOR_FOR_SUBJECT } from './purchaseRoutes.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

type Pkg = { id: string; cents: number; sessions: number };
/** Grade 11-12 packages by session count, and a Grade 10 & under one (another tier). */
const tier11: Record<number, Pkg> = {};
let otherTier: Pkg;
/** Calculus (Grade 11-12): the Grade 11-12 packages' level. */
let SUBJECT: string;

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await waitForProjections(system.sql, ['packages'], await system.store.committedPosition(), 30_000);
  for (let i = 0; i < 300; i++) {
    const all = await listPackages(system.sql);
    for (const p of all.filter((x) => x.gradeTier.id === 'grade_11_12'))
      tier11[p.sessionCount] = { id: p.id, cents: p.totalPriceCents, sessions: p.sessionCount };
    const other = all.find((x) => x.gradeTier.id !== 'grade_11_12');
    if (other) otherTier = { id: other.id, cents: other.totalPriceCents, sessions: other.sessionCount };
    if (tier11[4] && tier11[8] && tier11[12] && otherTier) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
  SUBJECT = (await listSubjects(system.sql)).find((s) => s.name === 'Calculus (Grade 11-12)')?.id as string;
  // Repurchase sells only subjects a listed tutor teaches (issue 24: no dead ends).
  await listedTutorTeaching(system, 'repurchase', ['Calculus (Grade 11-12)', 'Calculus (University/College)']);
}, 60_000);

const courses = () => courseHandlers(system.store);
const sandbox = () => system.payments as SandboxPayments;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually<T>(read: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function promo(code: string, discountType: 'percentage' | 'fixed_amount', discountValue: string) {
  const { promoCodeId } = await createPromoCode(
    promoCodeHandlers(system.store),
    { code, description: null, discountType, discountValue, maxUses: null, validFrom: null, validUntil: null, isActive: true },
    commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() }),
  );
  return promoCodeId;
}

/**
 * A Grade 11 student signed in as their own account holder, with a course of the Grade 11-12 tier
 * bought with 4 sessions of which `used` are used up (reserved then consumed, as completed sessions are).
 */
async function studentWithCourse(options: { used?: number; parentId?: string; subjectId?: string } = {}) {
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
  const courseId = randomUUID();
  const ctx = () => commandContext({ now: system.clock.now() });
  const handle = courses().courses;
  const pkg = tier11[4]!;
  await handle.handle(
    courseId,
    {
      type: 'EnrollCourse',
      data: {
        courseId,
        studentId,
        subjectId: options.subjectId ?? SUBJECT,
        packageId: pkg.id,
        purchaseId: `first-${courseId}`,
        credits: 4,
      },
    },
    ctx(),
  );
  await handle.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId: 'tutor-1', tutorQualified: true } }, ctx());
  for (let i = 0; i < (options.used ?? 4); i++) {
    const sessionId = `session-${i}`;
    await handle.handle(courseId, { type: 'ReserveCredit', data: { courseId, sessionId } }, ctx());
    const { position } = await handle.handle(courseId, { type: 'ConsumeCredit', data: { courseId, sessionId } }, ctx());
    await waitForProjections(system.sql, ['student_courses'], position, 10_000);
  }
  await waitForProjections(system.sql, ['student_courses', 'students'], await system.store.committedPosition(), 10_000);
  const cookie = `tm_session=${(await system.signIns.create(userId, 'student')).token}`;
  return { studentId, userId, courseId, cookie };
}

const post = (url: string, cookie: string | undefined, payload: object) =>
  app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, payload });
const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const repurchaseUrl = (studentId: string, courseId: string) => `/api/student/${studentId}/courses/${courseId}/repurchase`;
const body = (pkg: Pkg, extra: Record<string, unknown> = {}) => ({
  packageId: pkg.id,
  email: 'buyer@example.com',
  promoCodeId: null,
  originalAmount: pkg.cents / 100,
  discountAmount: 0,
  finalAmount: pkg.cents / 100,
  ...extra,
});

const countEvents = async (pattern: string) =>
  Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type LIKE ${pattern}`)[0]?.n);
const creditsAddedFor = async (purchaseId: string) =>
  Number(
    (
      await system.sql<{ n: bigint }[]>`
        SELECT count(*) AS n FROM es_events WHERE type = 'CourseCreditsAdded' AND data->>'purchaseId' = ${purchaseId}`
    )[0]?.n,
  );

/** The hosted checkout page's session id, from the answer's URL. */
const sessionIdOf = (checkoutUrl: string) => decodeURIComponent(new URL(checkoutUrl).pathname.split('/').at(-1)!);

describe('repurchase', () => {
  it('follows the catalogue: the package of the course subject’s level at its price; not for a deactivated subject (409)', async () => {
    const subjects = await listSubjects(system.sql);
    const universityCalculus = subjects.find((s) => s.name === 'Calculus (University/College)')?.id as string;
    // A course of University Calculus (bought at the Grade 11-12 price before the fix): its level decides now, not that package.
    const cheap = await studentWithCourse({ subjectId: universityCalculus });
    const before = await Promise.all(['Purchase%', 'PromoUse%', 'CourseCredits%'].map(countEvents));
    const again = await post(repurchaseUrl(cheap.studentId, cheap.courseId), cheap.cookie, body(tier11[4]!));
    expect(again.statusCode, again.body).toBe(400);
    expect(again.json()).toEqual({ message: REPURCHASE_WRONG_TIER });
    const silent = await post(repurchaseUrl(cheap.studentId, cheap.courseId), cheap.cookie, { packageId: tier11[4]!.id });
    expect(silent.json()).toEqual({ message: REPURCHASE_WRONG_TIER });
    expect(await Promise.all(['Purchase%', 'PromoUse%', 'CourseCredits%'].map(countEvents))).toEqual(before);
    const university = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'university' && p.sessionCount === 4)!;
    const right = await post(repurchaseUrl(cheap.studentId, cheap.courseId), cheap.cookie, { packageId: university.id });
    expect(right.statusCode, right.body).toBe(200);
    const { started } = await purchaseHandlers(system.store).purchases.load(right.json().purchaseId);
    expect(started).toMatchObject({ subjectId: universityCalculus, priceCents: 36_000, finalCents: 36_000 });

    const admin = commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() });
    const { subjectId: retired } = await addSubject(
      subjectHandlers(system.store),
      { name: `Retired Topic ${randomUUID().slice(0, 6)} (Grade 11-12)`, description: null, category: null, gradeLevel: 'grade_11_12' },
      admin,
    );
    const orphan = await studentWithCourse({ subjectId: retired });
    await setSubjectActive(
      subjectHandlers(system.store),
      retired,
      false,
      commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() }),
    );
    const refused = await post(repurchaseUrl(orphan.studentId, orphan.courseId), orphan.cookie, body(tier11[4]!));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({ message: SUBJECT_NOT_OFFERED });
  });

  it('not for a subject no listed tutor teaches any more (409, nothing recorded): its sessions could never be booked', async () => {
    const { subjectId: untaught } = await addSubject(
      subjectHandlers(system.store),
      { name: `Untaught Topic ${randomUUID().slice(0, 6)} (Grade 11-12)`, description: null, category: null, gradeLevel: 'grade_11_12' },
      commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() }),
    );
    const stranded = await studentWithCourse({ subjectId: untaught });
    const before = await Promise.all(['Purchase%', 'PromoUse%', 'CourseCredits%', 'CourseRepurchase%'].map(countEvents));
    const refused = await post(repurchaseUrl(stranded.studentId, stranded.courseId), stranded.cookie, body(tier11[4]!));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({ message: NO_TUTOR_FOR_SUBJECT });
    expect(await Promise.all(['Purchase%', 'PromoUse%', 'CourseCredits%', 'CourseRepurchase%'].map(countEvents))).toEqual(before);
  });

  it('refuses forged amounts (400), a course with sessions left (409), another tier (400); nothing recorded', async () => {
    const used = await studentWithCourse();
    const before = await Promise.all(['Purchase%', 'PromoUse%', 'CourseCredits%'].map(countEvents));
    const forged = await post(repurchaseUrl(used.studentId, used.courseId), used.cookie, body(tier11[4]!, { finalAmount: 1 }));
    expect(forged.statusCode, forged.body).toBe(400);
    expect(forged.json()).toEqual({ message: AMOUNT_MISMATCH });
    const forgedOriginal = await post(repurchaseUrl(used.studentId, used.courseId), used.cookie, body(tier11[4]!, { originalAmount: 2 }));
    expect(forgedOriginal.statusCode).toBe(400);

    const wrongTier = await post(repurchaseUrl(used.studentId, used.courseId), used.cookie, body(otherTier));
    expect(wrongTier.statusCode, wrongTier.body).toBe(400);
    expect(wrongTier.json()).toEqual({ message: REPURCHASE_WRONG_TIER });

    const unknownPackage = await post(repurchaseUrl(used.studentId, used.courseId), used.cookie, {
      ...body(tier11[4]!),
      packageId: 'nope',
    });
    expect(unknownPackage.statusCode).toBe(404);

    const left = await studentWithCourse({ used: 3 });
    const notYet = await post(repurchaseUrl(left.studentId, left.courseId), left.cookie, body(tier11[4]!));
    expect(notYet.statusCode, notYet.body).toBe(409);
    expect(notYet.json()).toEqual({ message: REPURCHASE_NOT_YET });

    const badEmail = await post(repurchaseUrl(used.studentId, used.courseId), used.cookie, body(tier11[4]!, { email: 'not an address' }));
    expect(badEmail.statusCode).toBe(400);
    expect(await Promise.all(['Purchase%', 'PromoUse%', 'CourseCredits%'].map(countEvents))).toEqual(before);
  });

  it('only the student’s account holder: a view-only login 403, someone else’s student 403, someone else’s course 404, signed out 401', async () => {
    const own = await studentWithCourse();
    const other = await studentWithCourse();
    const viewOnly = `tm_session=${(await system.signIns.create(own.userId, 'student_secondary', own.studentId)).token}`;
    expect((await post(repurchaseUrl(own.studentId, own.courseId), viewOnly, body(tier11[4]!))).statusCode).toBe(403);
    expect((await post(repurchaseUrl(other.studentId, other.courseId), own.cookie, body(tier11[4]!))).statusCode).toBe(403);
    const foreignCourse = await post(repurchaseUrl(own.studentId, other.courseId), own.cookie, body(tier11[4]!));
    expect(foreignCourse.statusCode, foreignCourse.body).toBe(404);
    expect(foreignCourse.json()).toEqual({ message: REPURCHASE_COURSE_NOT_FOUND });
    expect((await post(repurchaseUrl(own.studentId, own.courseId), undefined, body(tier11[4]!))).statusCode).toBe(401);
    expect((await get('/api/repurchase/verify/cs_sbx_unknown')).statusCode).toBe(401);
  });

  it('a parent repurchases for their student on the sandbox’s hosted page; verify ×10 and the webhook at once credit the course once', async () => {
    const parentId = `parent-${randomUUID().slice(0, 8)}`;
    const { studentId, courseId } = await studentWithCourse({ parentId });
    const cookie = `tm_session=${(await system.signIns.create(parentId, 'parent')).token}`;
    const res = await post(repurchaseUrl(studentId, courseId), cookie, body(tier11[8]!));
    expect(res.statusCode, res.body).toBe(200);
    const answer = repurchaseAnswerSchema.parse(res.json());
    expect(answer.checkoutUrl).toMatch(/\/sandbox\/checkout\/cs_sbx_/);
    const sessionId = sessionIdOf(answer.checkoutUrl);

    // The hosted page: the order, for the buyer only.
    const page = sandboxCheckoutSchema.parse((await get(`/api/sandbox/checkout-sessions/${sessionId}`, cookie)).json());
    expect(page).toMatchObject({ amount: tier11[8]!.cents / 100, currency: 'CAD', status: 'open', requiresAction: false });
    expect(page.successUrl).toContain(`/checkout?repurchase=true&session_id=${sessionId}`);
    expect(page.cancelUrl).toContain('/checkout?repurchase=true&cancelled=true');
    const stranger = await studentWithCourse();
    expect((await get(`/api/sandbox/checkout-sessions/${sessionId}`, stranger.cookie)).statusCode).toBe(403);
    expect((await get(`/api/repurchase/verify/${sessionId}`, stranger.cookie)).statusCode).toBe(403);
    expect(
      (await post(`/api/sandbox/checkout-sessions/${sessionId}/pay`, stranger.cookie, { cardNumber: '4242424242424242' })).statusCode,
    ).toBe(403);
    expect((await get('/api/repurchase/verify/cs_sbx_doesnotexist', cookie)).statusCode).toBe(404);

    // A completed session that is not the one the purchase is paid on is acknowledged and changes nothing.
    const stray = sandbox().signedDelivery({
      type: 'checkout.session.completed',
      eventId: `evt_test_${randomUUID()}`,
      created: Math.floor(Date.now() / 1000),
      session: {
        id: 'cs_sbx_stray',
        url: null,
        status: 'complete',
        paymentStatus: 'paid',
        paymentIntentId: 'pi_sbx_stray',
        amountCents: tier11[8]!.cents,
        metadata: { purchaseId: answer.purchaseId, kind: 'repurchase' },
      },
    });
    const strayRes = await app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': stray.signature },
      payload: stray.body,
    });
    expect(strayRes.statusCode, strayRes.body).toBe(200);
    expect(await creditsAddedFor(answer.purchaseId)).toBe(0);
    expect((await findPurchase(system.sql, answer.purchaseId))?.status).toBe('pending');

    // Not paid yet.
    expect((await get(`/api/repurchase/verify/${sessionId}`, cookie)).json()).toEqual({ processed: false });

    // A declined card leaves the session open and the purchase pending.
    const declined = sandboxCheckoutResultSchema.parse(
      (await post(`/api/sandbox/checkout-sessions/${sessionId}/pay`, cookie, { cardNumber: '4000 0000 0000 0002' })).json(),
    );
    expect(declined).toMatchObject({ status: 'requires_payment_method', message: 'Your card was declined.' });
    await eventually(async () => (await sandbox().pendingEvents()).length === 0);
    expect((await findPurchase(system.sql, answer.purchaseId))?.status).toBe('pending');

    // Paid: ten verifies and the webhook (the session's signed event) at once; the outbox worker delivers it as well.
    const paid = sandboxCheckoutResultSchema.parse(
      (await post(`/api/sandbox/checkout-sessions/${sessionId}/pay`, cookie, { cardNumber: '4242 4242 4242 4242' })).json(),
    );
    expect(paid.status).toBe('succeeded');
    expect(paid.redirectTo).toBe(page.successUrl);
    const session = await system.payments.retrieveCheckoutSession(sessionId);
    const delivery = sandbox().signedDelivery({
      type: 'checkout.session.completed',
      eventId: `evt_test_${randomUUID()}`,
      created: Math.floor(Date.now() / 1000),
      session,
    });
    const webhook = () =>
      app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
        payload: delivery.body,
      });
    const results = await Promise.all([...Array.from({ length: 10 }, () => get(`/api/repurchase/verify/${sessionId}`, cookie)), webhook()]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const verified = results.slice(0, 10).map((r) => r.json() as { processed: boolean });
    expect(verified.some((v) => v.processed)).toBe(true);
    expect((await get(`/api/repurchase/verify/${sessionId}`, cookie)).json()).toEqual({ processed: true });

    // The webhook replayed, and the outbox drained: still one credit.
    expect((await webhook()).statusCode).toBe(200);
    await eventually(async () => (await sandbox().pendingEvents()).length === 0);
    await waitForProjections(system.sql, ['purchase_fulfilment', 'student_courses'], await system.store.committedPosition(), 10_000);
    expect(await creditsAddedFor(answer.purchaseId)).toBe(1);
    expect(await findCourse(system.sql, courseId)).toMatchObject({ sessionsRemaining: 8, packageId: tier11[8]!.id });
    expect((await findPurchase(system.sql, answer.purchaseId))?.status).toBe('completed');
    // The credits cleared the course's repurchase mark.
    expect((await courses().courses.load(courseId)).pendingRepurchase).toBeNull();

    // Sessions left now: no second repurchase.
    expect((await post(repurchaseUrl(studentId, courseId), cookie, body(tier11[4]!))).statusCode).toBe(409);
  });

  it('a 100% code repurchases for free without a checkout page; verify says processed; the code is redeemed', async () => {
    const { studentId, courseId, cookie } = await studentWithCourse();
    const promoCodeId = await promo(`FREE${randomUUID().slice(0, 6)}`.toUpperCase(), 'percentage', '100');
    const pkg = tier11[12]!;
    const res = await post(
      repurchaseUrl(studentId, courseId),
      cookie,
      body(pkg, { promoCodeId, discountAmount: pkg.cents / 100, finalAmount: 0 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = repurchaseAnswerSchema.parse(res.json());
    expect(answer.checkoutUrl).toBe(`/checkout?repurchase=true&session_id=free_${answer.purchaseId}`);
    expect(await findCourse(system.sql, courseId)).toMatchObject({ sessionsRemaining: 12 });
    expect((await get(`/api/repurchase/verify/free_${answer.purchaseId}`, cookie)).json()).toEqual({ processed: true });
    const stranger = await studentWithCourse();
    expect((await get(`/api/repurchase/verify/free_${answer.purchaseId}`, stranger.cookie)).statusCode).toBe(403);
    expect((await get(`/api/repurchase/verify/free_${randomUUID()}`, cookie)).statusCode).toBe(404);
    await eventually(async () => (await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).redeemed.includes(answer.purchaseId));
    expect(await creditsAddedFor(answer.purchaseId)).toBe(1);
  });

  it('leaving the hosted checkout (its cancel URL) expires the session and gives the repurchase up at once; the course can then be ended', async () => {
    const { studentId, courseId, cookie } = await studentWithCourse();
    const promoCodeId = await promo(`BYE${randomUUID().slice(0, 6)}`.toUpperCase(), 'percentage', '10');
    const pkg = tier11[8]!;
    const discount = Math.round(pkg.cents * 0.1) / 100;
    const res = await post(
      repurchaseUrl(studentId, courseId),
      cookie,
      body(pkg, { promoCodeId, discountAmount: discount, finalAmount: pkg.cents / 100 - discount }),
    );
    const answer = repurchaseAnswerSchema.parse(res.json());
    const sessionId = sessionIdOf(answer.checkoutUrl);
    const page = sandboxCheckoutSchema.parse((await get(`/api/sandbox/checkout-sessions/${sessionId}`, cookie)).json());
    expect(page.cancelUrl).toContain(`cancelled=true&purchase=${answer.purchaseId}`);

    const stranger = await studentWithCourse();
    expect((await post(`/api/repurchase/${answer.purchaseId}/cancel`, stranger.cookie, {})).statusCode).toBe(403);
    expect((await post(`/api/repurchase/${randomUUID()}/cancel`, cookie, {})).statusCode).toBe(404);
    const cancelled = await post(`/api/repurchase/${answer.purchaseId}/cancel`, cookie, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ cancelled: true });
    expect((await courses().courses.load(courseId)).pendingRepurchase).toBeNull();
    expect((await post(`/api/repurchase/${answer.purchaseId}/cancel`, cookie, {})).json()).toEqual({ cancelled: true });
    expect((await findPurchase(system.sql, answer.purchaseId))?.status).toBe('abandoned');
    expect((await system.payments.retrieveCheckoutSession(sessionId)).status).toBe('expired');
    await eventually(async () => !(await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).claims[answer.purchaseId]);
    expect((await post(`/api/sandbox/checkout-sessions/${sessionId}/pay`, cookie, { cardNumber: '4242424242424242' })).statusCode).toBe(
      409,
    );
    const end = await app.inject({
      method: 'PATCH',
      url: `/api/student-courses/${courseId}/end`,
      headers: { cookie },
      payload: { status: 'inactive' },
    });
    expect(end.statusCode, end.body).toBe(200);
  });

  it('an abandoned repurchase gives its promo use back once its session has expired; an ended course is not repurchased', async () => {
    const { studentId, courseId, cookie } = await studentWithCourse();
    const promoCodeId = await promo(`TEN${randomUUID().slice(0, 6)}`.toUpperCase(), 'percentage', '10');
    const pkg = tier11[4]!;
    const discount = Math.round(pkg.cents * 0.1) / 100;
    const res = await post(
      repurchaseUrl(studentId, courseId),
      cookie,
      body(pkg, { promoCodeId, discountAmount: discount, finalAmount: pkg.cents / 100 - discount }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = repurchaseAnswerSchema.parse(res.json());
    expect((await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).claims[answer.purchaseId]).toBeTruthy();
    // While it is being paid for, the course cannot be ended (its credits would reopen it).
    const endCourse = () =>
      app.inject({ method: 'PATCH', url: `/api/student-courses/${courseId}/end`, headers: { cookie }, payload: { status: 'inactive' } });
    const early = await endCourse();
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toEqual({ message: REPURCHASE_BEING_PAID });
    const deps = { sql: system.sql, purchases: purchaseHandlers(system.store), payments: system.payments };
    const later = new Date(Date.now() + 31 * 60_000);
    // Still open at the provider: it may still be paid, so it is not given up.
    await sweepAbandonedPurchases(deps, later);
    expect((await findPurchase(system.sql, answer.purchaseId))?.status).toBe('pending');
    await system.sql`UPDATE sandbox_checkout_sessions SET expires_at = now() - interval '1 minute' WHERE id = ${sessionIdOf(answer.checkoutUrl)}`;
    await sweepAbandonedPurchases(deps, later);
    await eventually(async () => (await findPurchase(system.sql, answer.purchaseId))?.status === 'abandoned');
    await eventually(async () => !(await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).claims[answer.purchaseId]);
    await waitForProjections(system.sql, ['purchase_fulfilment'], await system.store.committedPosition(), 10_000);
    expect((await courses().courses.load(courseId)).pendingRepurchase).toBeNull();
    const pay = await post(`/api/sandbox/checkout-sessions/${sessionIdOf(answer.checkoutUrl)}/pay`, cookie, {
      cardNumber: '4242424242424242',
    });
    expect(pay.statusCode).toBe(409);
    expect(await creditsAddedFor(answer.purchaseId)).toBe(0);

    // End the course (its sessions are all used), then a repurchase is refused.
    const end = await endCourse();
    expect(end.statusCode, end.body).toBe(200);
    expect(end.json()).toMatchObject({ status: 'inactive', sessionsRemaining: 0 });
    const ended = await post(repurchaseUrl(studentId, courseId), cookie, body(pkg));
    expect(ended.statusCode).toBe(409);
    expect(ended.json()).toEqual({ message: REPURCHASE_COURSE_ENDED });
  });

  it('ten repurchases of one used-up course at once (different idempotency keys): one is paid for, nine are 409, one checkout session', async () => {
    const { studentId, courseId, cookie } = await studentWithCourse();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: repurchaseUrl(studentId, courseId),
          headers: { cookie, 'idempotency-key': `tab-${i}-${randomUUID()}` },
          payload: body(tier11[4]!),
        }),
      ),
    );
    const won = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(won.length, results.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(1);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.json()).toEqual({ message: REPURCHASE_ALREADY_PENDING });
    const { purchaseId } = repurchaseAnswerSchema.parse(won[0]!.json());
    expect((await courses().courses.load(courseId)).pendingRepurchase).toBe(purchaseId);
    const sessions = await system.sql`SELECT id FROM sandbox_checkout_sessions WHERE metadata->>'courseId' = ${courseId}`;
    expect(sessions).toHaveLength(1);
    const marks = await system.sql`
      SELECT 1 FROM es_events WHERE type = 'CourseRepurchasePending' AND data->>'courseId' = ${courseId}`;
    expect(marks).toHaveLength(1);

    // Given up (its cancel URL): the course may be repurchased again.
    expect((await post(`/api/repurchase/${purchaseId}/cancel`, cookie, {})).json()).toEqual({ cancelled: true });
    const again = await post(repurchaseUrl(studentId, courseId), cookie, body(tier11[4]!));
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a checkout that cannot start gives the course’s mark and promo use back; the same request retried claims both again and is paid for', async () => {
    const { studentId, courseId, cookie } = await studentWithCourse();
    const pkg = tier11[4]!;
    const promoCodeId = await promo(`AGAIN${randomUUID().slice(0, 6)}`.toUpperCase(), 'percentage', '10');
    const discount = Math.round(pkg.cents * 0.1) / 100;
    const withPromo = body(pkg, { promoCodeId, discountAmount: discount, finalAmount: pkg.cents / 100 - discount });
    const promoClaims = async () => (await promoCodeHandlers(system.store).promoCodes.load(promoCodeId)).claims;
    const payments = system.payments;
    const create = payments.createCheckoutSession.bind(payments);
    let failures = 1;
    payments.createCheckoutSession = async (input) => {
      if (failures-- > 0) throw new PaymentError('unavailable', 'The provider is down');
      return create(input);
    };
    try {
      const request = () =>
        app.inject({
          method: 'POST',
          url: repurchaseUrl(studentId, courseId),
          headers: { cookie, 'idempotency-key': `retry-${courseId}` },
          payload: withPromo,
        });
      const failed = await request();
      expect(failed.statusCode, failed.body).toBeGreaterThanOrEqual(500);
      expect((await courses().courses.load(courseId)).pendingRepurchase).toBeNull();
      expect(Object.keys(await promoClaims())).toEqual([]);
      const givenBack = await system.sql`
        SELECT 1 FROM es_events WHERE type = 'CourseRepurchaseCleared' AND data->>'courseId' = ${courseId} AND data->>'outcome' = 'given_back'`;
      expect(givenBack).toHaveLength(1);

      const retried = await request();
      expect(retried.statusCode, retried.body).toBe(200);
      const { purchaseId } = repurchaseAnswerSchema.parse(retried.json());
      expect((await courses().courses.load(courseId)).pendingRepurchase).toBe(purchaseId);
      // The retried request holds the code's use again (its first claim step had been given back).
      expect(Object.keys(await promoClaims())).toEqual([purchaseId]);
    } finally {
      payments.createCheckoutSession = create;
    }
  });

  it('End Course racing a repurchase start: never both (10 rounds)', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round++) {
      const { studentId, courseId, cookie } = await studentWithCourse();
      const [repurchase, end] = await Promise.all([
        app.inject({
          method: 'POST',
          url: repurchaseUrl(studentId, courseId),
          headers: { cookie, 'idempotency-key': `race-${randomUUID()}` },
          payload: body(tier11[4]!),
        }),
        // The end starts a little later each round, so the rounds sweep the repurchase's steps.
        sleep(round).then(() =>
          app.inject({
            method: 'PATCH',
            url: `/api/student-courses/${courseId}/end`,
            headers: { cookie, 'idempotency-key': `end-${randomUUID()}` },
            payload: { status: 'inactive' },
          }),
        ),
      ]);
      const both = `${repurchase.statusCode} ${repurchase.body} / ${end.statusCode} ${end.body}`;
      expect([repurchase.statusCode, end.statusCode].sort(), both).toEqual([200, 409]);
      const ledger = await courses().courses.load(courseId);
      if (repurchase.statusCode === 200) {
        expect(end.json()).toEqual({ message: REPURCHASE_BEING_PAID });
        expect(ledger.status).not.toBe('inactive');
        expect(ledger.pendingRepurchase).toBe(repurchaseAnswerSchema.parse(repurchase.json()).purchaseId);
        outcomes.push('repurchase');
      } else {
        expect(repurchase.json()).toEqual({ message: REPURCHASE_COURSE_ENDED });
        expect(ledger).toMatchObject({ status: 'inactive', pendingRepurchase: null });
        const sessions = await system.sql`SELECT id FROM sandbox_checkout_sessions WHERE metadata->>'courseId' = ${courseId}`;
        expect(sessions).toHaveLength(0);
        outcomes.push('end');
      }
    }
    expect(outcomes).toHaveLength(10);
  }, 120_000);
});
