import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { listedTutorTeaching } from '../../../../tests/support/tutors.ts';
import type { RecordedEvent } from '../../../adapters/eventstore/eventStore.ts';
import { claimEnrollment } from '../../../commands/accounts/enrollment.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { createPromoCode } from '../../../commands/promoCodes/managePromoCodes.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { purchaseHandlers } from '../../../commands/purchases/purchaseHandlers.ts';
import { addSubject, setSubjectActive } from '../../../commands/subjects/manageSubjects.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { subjectHandlers } from '../../../commands/subjects/subjectHandlers.ts';
import { CHECKOUT_PENDING, GRADE_TIER_NOT_ALLOWED, TUTOR_SELECTION_PENDING } from '../../../domain/accounts/studentDecider.ts';
import { PACKAGE_WRONG_LEVEL, SUBJECT_NOT_FOUND, SUBJECT_NOT_OFFERED } from '../../../domain/purchases/checkoutCatalogue.ts';
import { paymentIntentAnswerSchema } from '../../../domain/purchases/purchaseApi.ts';
import type { GradeLevel } from '../../../domain/subjects/gradeLevels.ts';
import { listStudentCourses } from '../../../projections/courses/queries.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';
import { sweepAbandonedPurchases } from '../../../sagas/purchases/abandonedPurchases.ts';
import {
  ORPHANED_ENROLLMENT_CLAIM_MS,
  type OrphanedEnrollmentClaimJob,
  orphanedEnrollmentClaimReactor,
  sweepOrphanedEnrollmentClaim,
} from '../../../sagas/purchases/orphanedEnrollmentClaims.ts';
import { AMOUNT_MISMATCH, NO_TUTOR_FOR_SUBJECT } from './purchaseRoutes.ts';

/**
 * Issue 23 §1 over HTTP: a checkout is priced by the subject's level from the catalogue's streams,
 * refused for unknown and deactivated subjects with nothing recorded, and one student's concurrent
 * checkouts (on a real listening port) cannot pass the enrolment rules together.
 */
let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let baseUrl: string;
/** The 4-session package of each tier: id and price in cents. */
const fourPack = new Map<GradeLevel, { id: string; cents: number }>();
let subjects: { id: string; name: string; gradeLevel: GradeLevel }[];
const subjectId = (name: string) => subjects.find((s) => s.name === name)?.id as string;

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await waitForProjections(system.sql, ['packages', 'subjects'], await system.store.committedPosition(), 30_000);
  for (const p of await listPackages(system.sql))
    if (p.sessionCount === 4) fourPack.set(p.gradeTier.id, { id: p.id, cents: p.totalPriceCents });
  subjects = await listSubjects(system.sql);
  // Only a subject a listed tutor teaches is sold (issue 24): these checkouts buy across the catalogue.
  await listedTutorTeaching(
    system,
    'checkout-catalogue',
    subjects.map((s) => s.name),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 60_000);

async function newStudent(grade = 'Grade 11') {
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
        firstName: 'Ann',
        lastName: 'Lee',
        grade,
        isUniversityStudent: grade === 'University/College',
        schoolYearStartMonth: 9,
      },
    },
    commandContext({ now: system.clock.now() }),
  );
  const cookie = `tm_session=${(await system.signIns.create(userId, 'student')).token}`;
  return { studentId, userId, cookie };
}

/** A checkout over the listening port, as a browser sends it. */
async function checkout(cookie: string, body: Record<string, unknown>) {
  const res = await fetch(`${baseUrl}/api/create-payment-intent`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Everything a checkout records (its purchase, the student's slot, the code's use), for `studentId`. */
const recorded = async (studentId: string) =>
  Number(
    (
      await system.sql<{ n: bigint }[]>`
        SELECT count(*) AS n FROM es_events
        WHERE (type LIKE 'Purchase%' OR type LIKE 'Enrollment%' OR type LIKE 'PromoUse%') AND data::text LIKE ${`%${studentId}%`}`
    )[0]?.n,
  );

const pack = (tier: GradeLevel) => fourPack.get(tier) as { id: string; cents: number };

async function freeCode() {
  const { promoCodeId } = await createPromoCode(
    promoCodeHandlers(system.store),
    {
      code: `FREE${randomUUID().slice(0, 8).toUpperCase()}`,
      description: null,
      discountType: 'percentage',
      discountValue: '100',
      maxUses: null,
      validFrom: null,
      validUntil: null,
      isActive: true,
    },
    commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() }),
  );
  return promoCodeId;
}

describe('checkout prices by the subject’s level', () => {
  it('refuses the Grade 11-12 package for Calculus (University/College) (400), nothing recorded; sells the University one at its price', async () => {
    const { studentId, cookie } = await newStudent('Grade 11');
    const calculus = subjectId('Calculus (University/College)');
    const cheap = await checkout(cookie, { studentId, subjectId: calculus, packageId: pack('grade_11_12').id, amount: 300 });
    expect(cheap).toEqual({ status: 400, body: { message: PACKAGE_WRONG_LEVEL } });
    // Without any amount in the body: still refused (the server prices, the body does not).
    const silent = await checkout(cookie, { studentId, subjectId: calculus, packageId: pack('grade_11_12').id });
    expect(silent).toEqual({ status: 400, body: { message: PACKAGE_WRONG_LEVEL } });
    expect(await recorded(studentId)).toBe(0);

    // The University package's price forged down is refused; with no amount the catalogue's price is charged.
    const forged = await checkout(cookie, {
      studentId,
      subjectId: calculus,
      packageId: pack('university').id,
      amount: 300,
      finalAmount: 300,
    });
    expect(forged).toEqual({ status: 400, body: { message: AMOUNT_MISMATCH } });
    expect(await recorded(studentId)).toBe(0);
    const sold = await checkout(cookie, { studentId, subjectId: calculus, packageId: pack('university').id });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const answer = paymentIntentAnswerSchema.parse(sold.body);
    expect(answer.amount).toBe(360);
    expect((await system.payments.retrievePaymentIntent(answer.paymentIntentId as string)).amountCents).toBe(36_000);
    const { started } = await purchaseHandlers(system.store).purchases.load(answer.purchaseId);
    expect(started).toMatchObject({ subjectId: calculus, packageId: pack('university').id, priceCents: 36_000, finalCents: 36_000 });
    // The count the refusals are held to does see what a checkout records.
    expect(await recorded(studentId)).toBeGreaterThan(0);
  });

  it('a grade that does not allow the tier is refused even at the subject’s level (Grade 11, Math (Grade 10 & Under))', async () => {
    const { studentId, cookie } = await newStudent('Grade 11');
    const math = subjectId('Math (Grade 10 & Under)');
    const refused = await checkout(cookie, { studentId, subjectId: math, packageId: pack('grade_10_under').id });
    expect(refused).toEqual({ status: 400, body: { message: GRADE_TIER_NOT_ALLOWED } });
    expect(await recorded(studentId)).toBe(0);
  });

  it('refuses an unknown subject (404) and a deactivated one (409), recording nothing', async () => {
    const { studentId, cookie } = await newStudent('Grade 11');
    const unknown = await checkout(cookie, { studentId, subjectId: randomUUID(), packageId: pack('grade_11_12').id });
    expect(unknown).toEqual({ status: 404, body: { message: SUBJECT_NOT_FOUND } });

    const handlers = subjectHandlers(system.store);
    const admin = () => commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() });
    const retiredName = `Retired Topic ${randomUUID().slice(0, 6)} (Grade 11-12)`;
    const { subjectId: retired } = await addSubject(
      handlers,
      { name: retiredName, description: null, category: null, gradeLevel: 'grade_11_12' },
      admin(),
    );
    await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
    await listedTutorTeaching(system, 'retired-topic', [retiredName]);
    const other = await newStudent('Grade 11');
    const whileOffered = await checkout(other.cookie, {
      studentId: other.studentId,
      subjectId: retired,
      packageId: pack('grade_11_12').id,
    });
    expect(whileOffered.status, JSON.stringify(whileOffered.body)).toBe(200);
    await setSubjectActive(handlers, retired, false, admin());
    const deactivated = await checkout(cookie, { studentId, subjectId: retired, packageId: pack('grade_11_12').id });
    expect(deactivated).toEqual({ status: 409, body: { message: SUBJECT_NOT_OFFERED } });
    expect(await recorded(studentId)).toBe(0);
  });
});

describe('only a subject a listed tutor teaches is sold (issue 24)', () => {
  it('refuses a subject no tutor teaches (409, nothing recorded); sells it once a tutor lists it; refuses it again when that tutor is deactivated', async () => {
    const handlers = subjectHandlers(system.store);
    const admin = () => commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() });
    const name = `Untaught ${randomUUID().slice(0, 6)} (Grade 11-12)`;
    const { subjectId: untaught } = await addSubject(
      handlers,
      { name, description: null, category: null, gradeLevel: 'grade_11_12' },
      admin(),
    );
    await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
    const { studentId, cookie } = await newStudent('Grade 11');
    const refused = await checkout(cookie, { studentId, subjectId: untaught, packageId: pack('grade_11_12').id });
    expect(refused).toEqual({ status: 409, body: { message: NO_TUTOR_FOR_SUBJECT } });
    expect(await recorded(studentId)).toBe(0);

    const tutor = await listedTutorTeaching(system, `untaught-${untaught.slice(0, 6)}`, [name]);
    const other = await newStudent('Grade 11');
    const sold = await checkout(other.cookie, { studentId: other.studentId, subjectId: untaught, packageId: pack('grade_11_12').id });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);

    await system.accounts.handlers.users.handle(
      tutor.userId,
      { type: 'DeactivateUser', data: { userId: tutor.userId, reason: 'left' } },
      admin(),
    );
    await waitForProjections(system.sql, ['users'], await system.store.committedPosition(), 30_000);
    const again = await checkout(cookie, { studentId, subjectId: untaught, packageId: pack('grade_11_12').id });
    expect(again).toEqual({ status: 409, body: { message: NO_TUTOR_FOR_SUBJECT } });
    expect(await recorded(studentId)).toBe(0);
  });
});

describe('concurrent checkouts by one student', () => {
  /** Grade 11-12 and University subjects a Grade 11 student may buy, each with its level's package. */
  const orders = (studentId: string, count: number) =>
    subjects
      .filter((s) => s.gradeLevel !== 'grade_10_under')
      .slice(0, count)
      .map((s) => ({ studentId, subjectId: s.id, packageId: pack(s.gradeLevel).id, amount: pack(s.gradeLevel).cents / 100 }));

  it('16 free checkouts for 16 subjects at once: one course awaiting its tutor, the next refused', async () => {
    const { studentId, cookie } = await newStudent('Grade 11');
    const promoCodeId = await freeCode();
    const bodies = orders(studentId, 16).map((o) => ({ ...o, promoCodeId, amount: 0, finalAmount: 0 }));
    expect(bodies).toHaveLength(16);
    const results = await Promise.all(bodies.map((b) => checkout(cookie, b)));
    const passed = results.filter((r) => r.status === 200);
    expect(passed, JSON.stringify(results)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect([CHECKOUT_PENDING, TUTOR_SELECTION_PENDING]).toContain(r.body.message);
    }
    const stream = await system.store.readStream(`student-${studentId}`);
    expect(stream.filter((e) => e.type === 'EnrollmentClaimed')).toHaveLength(1);
    await waitForProjections(system.sql, ['student_courses'], await system.store.committedPosition(), 30_000);
    const courses = await listStudentCourses(system.sql, studentId);
    expect(courses).toHaveLength(1);
    expect(courses[0]?.status).toBe('enrolled');

    const nextSubject = bodies.find((b) => !courses.some((c) => c.subjectId === b.subjectId));
    const again = await checkout(cookie, { ...nextSubject });
    expect(again).toEqual({ status: 409, body: { message: TUTOR_SELECTION_PENDING } });
  }, 60_000);

  it('12 paid checkouts at once: one holds the slot until it is abandoned, then the next subject may be bought', async () => {
    const { studentId, cookie } = await newStudent('Grade 11');
    const bodies = orders(studentId, 12);
    const results = await Promise.all(bodies.map((b) => checkout(cookie, b)));
    const passed = results.filter((r) => r.status === 200);
    expect(passed, JSON.stringify(results)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.message === CHECKOUT_PENDING)).toBe(true);
    expect(results.filter((r) => r.status === 409)).toHaveLength(11);

    const other = bodies[results.findIndex((r) => r.status !== 200)];
    expect(await checkout(cookie, { ...other })).toEqual({ status: 409, body: { message: CHECKOUT_PENDING } });

    // Unpaid past the payment window: abandoned, and the fulfilment gives the slot back.
    const deps = { sql: system.sql, purchases: purchaseHandlers(system.store), payments: system.payments };
    await waitForProjections(system.sql, ['purchases'], await system.store.committedPosition(), 30_000);
    expect(await sweepAbandonedPurchases(deps, new Date(Date.now() + 31 * 60_000))).toBeGreaterThanOrEqual(1);
    const released = async () => (await system.store.readStream(`student-${studentId}`)).some((e) => e.type === 'EnrollmentReleased');
    for (let i = 0; i < 400 && !(await released()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await released()).toBe(true);
    const retried = await checkout(cookie, { ...other });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
  }, 60_000);

  it('a slot whose purchase never started (the request died after the claim) is given back once the payment window is over', async () => {
    const { studentId, cookie } = await newStudent('Grade 11');
    const [first, second] = orders(studentId, 2);
    // The claim alone, as a checkout that died before its purchase started leaves it.
    await claimEnrollment(
      system.accounts.handlers,
      { studentId, subjectId: first?.subjectId as string, purchaseId: 'died-mid-checkout', gradeTierId: 'grade_11_12' },
      commandContext({ now: system.clock.now() }),
    );
    expect(await checkout(cookie, { ...second })).toEqual({ status: 409, body: { message: CHECKOUT_PENDING } });
    const [claimed] = (await system.store.readStream(`student-${studentId}`)).filter((e) => e.type === 'EnrollmentClaimed');
    const [check] = orphanedEnrollmentClaimReactor.jobsFor(claimed as RecordedEvent);
    expect(check?.startAfter?.getTime()).toBe((claimed as RecordedEvent).recordedAt.getTime() + ORPHANED_ENROLLMENT_CLAIM_MS);
    const deps = { purchases: purchaseHandlers(system.store), students: system.accounts.handlers, clock: system.clock };
    expect(await sweepOrphanedEnrollmentClaim(deps, check?.data as unknown as OrphanedEnrollmentClaimJob)).toBe('released');
    const sold = await checkout(cookie, { ...second });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    // The sold checkout's purchase started: its own end settles the slot, the check leaves it alone.
    const purchaseId = paymentIntentAnswerSchema.parse(sold.body).purchaseId;
    expect(await sweepOrphanedEnrollmentClaim(deps, { studentId, purchaseId })).toBe('started');
    expect((await system.accounts.handlers.students.load(studentId)).enrollments.map((e) => e.purchaseId)).toEqual([purchaseId]);
  });
});
