/**
 * The production-shape journeys' HTTP client (issue 20): what a browser does, as plain HTTP against
 * a base URL (the round-robin proxy in front of several API processes, or one in-process app), so
 * consecutive calls of one user may land on different processes. Each user is a small cookie jar
 * (`tm_session`, and `tm_oauth` during Google sign-in). Writes carry `Origin: <base origin>` as a
 * browser's do (the server refuses other origins, and `Origin: null`) and a fresh `Idempotency-Key`
 * as the UI's do. Answers are read through the API's own schemas (`src/domain/*Api.ts`, shared with
 * the UI). The only reads outside HTTP: the e-mail verification code, from the dev mail outbox
 * (`mail_outbox`, sealed per user, opened by `listOutbox`).
 *
 * Any status a function does not expect throws an HttpError naming the method, path, status and body.
 * `book`, `reschedule`, `cancel`, `complete` and `startNextEnrolment` also return a 409 (and
 * `startNextEnrolment` a 200) as an `Outcome` for the caller to assert.
 */

import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { listOutbox } from '../../src/adapters/mail/outboxMailer.ts';
import { type CurrentUser, currentUserSchema } from '../../src/domain/accounts/accountApi.ts';
import { type StudentCourse, studentCourseSchema } from '../../src/domain/courses/courseApi.ts';
import { packageSchema } from '../../src/domain/packages/packageApi.ts';
import { type PayoutPeriodView, payoutPeriodViewSchema } from '../../src/domain/payouts/payoutApi.ts';
import { type PromoCode, type PromoValidation, promoCodeSchema, promoValidationSchema } from '../../src/domain/promoCodes/promoCodeApi.ts';
import {
  type RefundAnswer,
  type RefundQuoteView,
  refundAnswerSchema,
  refundQuoteSchema,
} from '../../src/domain/purchases/adminPurchaseApi.ts';
import { confirmPaymentAnswerSchema, paymentIntentAnswerSchema } from '../../src/domain/purchases/purchaseApi.ts';
import {
  studentSessionSchema as bookedSessionSchema,
  bookingSlotSchema,
  type TutorSession,
  tutorSessionSchema,
} from '../../src/domain/sessions/sessionApi.ts';
import { type StudentSession, studentDashboardSchema } from '../../src/domain/students/studentApi.ts';
import { subjectSchema } from '../../src/domain/subjects/subjectApi.ts';
import { type TutorListEntry, tutorListEntrySchema } from '../../src/domain/tutors/tutorApi.ts';

/** Spec part 2 §9: the booking grid's times are New York times. */
export const BOOKING_ZONE = 'America/New_York';
/** Stripe's test card the sandbox honours: succeeds. */
export const TEST_CARD = '4242 4242 4242 4242';
const REQUEST_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// HTTP: the cookie jar, the request, the errors

/** One browser: the site's base URL and its cookies. */
export interface Client {
  readonly base: string;
  readonly cookies: Map<string, string>;
}

/** A signed-in user: the browser plus who the server says it is. */
export interface User extends Client {
  readonly userId: string;
  readonly role: string;
  readonly email: string;
}

/** A student's account holder (the student, or a parent) with the student it acts for. */
export interface StudentHolder extends User {
  readonly studentId: string;
}

export interface RegisteredStudent extends StudentHolder {
  readonly username: string;
  readonly password: string;
}

/** An unexpected answer: the method, path, status and body of the request. */
export class HttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 2000)}`);
    this.name = 'HttpError';
  }
}

/** A write the caller judges: the success with its typed body, or a 409 with the server's message. */
export type Outcome<T> = { ok: true; status: number; body: T } | { ok: false; status: 409; body: { message: string } };

export const newClient = (base: string): Client => ({ base: base.replace(/\/+$/, ''), cookies: new Map() });

interface Answer {
  status: number;
  text: string;
  location: string | null;
}

interface RequestOptions {
  json?: unknown;
  form?: Record<string, string>;
  /** Statuses that are answers; any other throws HttpError. */
  expect: readonly number[];
  /** The UI sends a fresh key on writes; pass one to retry a write safely. */
  idempotencyKey?: string;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function keepCookies(client: Client, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';');
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const attribute = (key: string) =>
      attributes
        .map((a) => a.trim())
        .find((a) => a.toLowerCase().startsWith(`${key}=`))
        ?.slice(key.length + 1);
    const maxAge = attribute('max-age');
    const expires = attribute('expires');
    const gone =
      value === '' || (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (gone) client.cookies.delete(name);
    else client.cookies.set(name, value);
  }
}

/** One request as a browser sends it (cookies, Origin on writes), redirects not followed. */
export async function send(client: Client, method: string, path: string, options: RequestOptions): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (client.cookies.size > 0) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  if (UNSAFE.has(method)) {
    headers.origin = new URL(client.base).origin;
    headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
  }
  const response = await fetch(`${client.base}${path}`, {
    method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  keepCookies(client, response);
  const answer = { status: response.status, text: await response.text(), location: response.headers.get('location') };
  if (!options.expect.includes(answer.status)) throw new HttpError(method, path, answer.status, answer.text);
  return answer;
}

/** The answer's JSON read through its schema; a body that does not fit is an HttpError too. */
function parse<S extends z.ZodType>(schema: S, method: string, path: string, answer: Answer): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    throw new HttpError(method, path, answer.status, `(not JSON) ${answer.text}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new HttpError(method, path, answer.status, `(unexpected shape: ${parsed.error.message}) ${answer.text}`);
  return parsed.data;
}

/** A call whose only answer is `status` (200 by default), typed by `schema`. */
export async function call<S extends z.ZodType>(
  client: Client,
  method: string,
  path: string,
  schema: S,
  options: { json?: unknown; status?: number; idempotencyKey?: string } = {},
): Promise<z.output<S>> {
  const answer = await send(client, method, path, { ...options, expect: [options.status ?? 200] });
  return parse(schema, method, path, answer);
}

const messageSchema = z.object({ message: z.string() });

/** A write whose 409 is an answer for the caller (a taken slot, a refused rule). */
async function outcome<S extends z.ZodType>(
  client: Client,
  method: string,
  path: string,
  schema: S,
  options: { json?: unknown; status: number; idempotencyKey?: string },
): Promise<Outcome<z.output<S>>> {
  const answer = await send(client, method, path, { ...options, expect: [options.status, 409] });
  if (answer.status === 409) return { ok: false, status: 409, body: parse(messageSchema, method, path, answer) };
  return { ok: true, status: answer.status, body: parse(schema, method, path, answer) };
}

const enc = encodeURIComponent;

/** Polls `read` until it gives a value (not null, undefined or false), or throws after `timeoutMs`. */
export async function eventually<T>(what: string, read: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---------------------------------------------------------------------------------------------
// Accounts

export const whoAmI = (client: Client): Promise<CurrentUser> => call(client, 'GET', '/api/user', currentUserSchema);

/** POST /api/login (students, parents, staff: one sign-in); the session cookie lands in the jar. */
export async function signIn(base: string, username: string, password: string): Promise<User & { user: CurrentUser }> {
  const client = newClient(base);
  const user = await call(client, 'POST', '/api/login', currentUserSchema, { json: { username, password } });
  return { ...client, userId: user.id, role: user.role, email: user.email, user };
}

/** An admin or finance user made beforehand (createStaffAccount), signed in as the admin login page does. */
export async function signInStaff(base: string, username: string, password: string): Promise<User> {
  const staff = await signIn(base, username, password);
  if (staff.role !== 'admin' && staff.role !== 'finance') throw new Error(`${username} is ${staff.role}, not staff`);
  return staff;
}

/** A parent made beforehand (parents do not self-register), acting for their first student (or the one named). */
export async function signInParent(base: string, username: string, password: string, studentId?: string): Promise<StudentHolder> {
  const parent = await signIn(base, username, password);
  const { students } = await call(parent, 'GET', '/api/parent/students', z.object({ students: z.array(z.object({ id: z.string() })) }));
  const chosen = studentId ?? students[0]?.id;
  if (!chosen || !students.some((s) => s.id === chosen)) throw new Error(`${username} has no student ${studentId ?? ''}`);
  return { ...parent, studentId: chosen };
}

/** The newest verification code mailed to `email` (the dev mailbox's outbox; mail goes out from a job). */
export async function verificationCode(sql: postgres.Sql, email: string, timeoutMs = 30_000): Promise<string> {
  return eventually(
    `the verification code mailed to ${email}`,
    async () => {
      const mails = await listOutbox(sql, { to: email, limit: 10 });
      const mail = mails.find((m) => m.subject.includes('verification code'));
      return mail?.text.match(/\b(\d{6})\b/)?.[1] ?? null;
    },
    timeoutMs,
  );
}

export interface NewStudentOptions {
  /** A registration grade (spec part 1 §5): Grade 9 … Grade 12, University/College. */
  grade?: string;
  firstName?: string;
  lastName?: string;
}

/**
 * Sign-up as /login's Sign Up tab does (spec part 1 §3 payload), the 6-digit code from the mail,
 * POST /api/verify-email, then sign-in. `n` makes the username and address unique (with a random tag).
 */
export async function registerStudent(
  base: string,
  sql: postgres.Sql,
  n: number | string,
  options: NewStudentOptions = {},
): Promise<RegisteredStudent> {
  const tag = `${n}_${randomUUID().slice(0, 8)}`;
  const username = `journey_student_${tag}`;
  const email = `journey.student.${tag}@example.com`;
  const password = `Journey-${randomUUID()}`;
  const grade = options.grade ?? 'Grade 11';
  const client = newClient(base);
  await call(client, 'POST', '/api/register', currentUserSchema, {
    status: 201,
    json: {
      username,
      email,
      password,
      role: 'student',
      firstName: options.firstName ?? 'Jo',
      lastName: options.lastName ?? `Journey${n}`,
      phone: '416-555-0100',
      grade,
      isUniversityStudent: grade === 'University/College',
      termsAccepted: true,
      termsAcceptedVersion: '1.0',
    },
  });
  const code = await verificationCode(sql, email);
  await call(client, 'POST', '/api/verify-email', z.object({ ok: z.literal(true) }), { json: { email, code } });
  const signedIn = await signIn(base, username, password);
  const studentId = signedIn.user.student?.id;
  if (!studentId) throw new Error(`${username} signed in without a student profile`);
  return {
    base: signedIn.base,
    cookies: signedIn.cookies,
    userId: signedIn.userId,
    role: signedIn.role,
    email,
    studentId,
    username,
    password,
  };
}

/**
 * "Sign in with Google" as a tutor, on the dev identity provider's local consent page: the start
 * (302 + `tm_oauth`), the consent form, the callback (302 to /tutor + `tm_session`). Several API
 * processes need one COOKIE_SECRET, since `tm_oauth` is signed by the process that started.
 * The seeded demo tutors' Google ids are `devSubjectOf(email)`, so their address is enough.
 */
export async function tutorSignIn(base: string, email: string, names: { firstName?: string; lastName?: string } = {}): Promise<User> {
  const client = newClient(base);
  const start = await send(client, 'GET', '/api/auth/google?userType=tutor', { expect: [302] });
  const consentUrl = new URL(start.location ?? '', `${client.base}/`);
  const pagePath = `${consentUrl.pathname}${consentUrl.search}`;
  await send(client, 'GET', pagePath, { expect: [200] });
  const query = consentUrl.searchParams;
  const consent = await send(client, 'POST', consentUrl.pathname, {
    expect: [302],
    form: {
      email,
      firstName: names.firstName ?? '',
      lastName: names.lastName ?? '',
      state: query.get('state') ?? '',
      userType: query.get('userType') ?? 'tutor',
      code_challenge: query.get('code_challenge') ?? '',
    },
  });
  const callback = new URL(consent.location ?? '', `${client.base}/`);
  const landed = await send(client, 'GET', `${callback.pathname}${callback.search}`, { expect: [302] });
  // A tutor lands on /tutor (or /tutor-onboarding until onboarding is done); anything else is no sign-in.
  if (landed.location !== '/tutor' && landed.location !== '/tutor-onboarding')
    throw new HttpError('GET', callback.pathname, 302, `landed on ${landed.location} instead of /tutor`);
  const user = await whoAmI(client);
  return { ...client, userId: user.id, role: user.role, email: user.email };
}

// ---------------------------------------------------------------------------------------------
// Promo codes, checkout, courses

export interface NewPromoCode {
  code: string;
  discountType: 'percentage' | 'fixed_amount';
  /** Percent, or dollars. */
  discountValue: number;
  maxUses?: number | null;
  description?: string | null;
  validUntil?: string | null;
}

/** The console's Promo Codes form: POST /api/admin/promo-codes (201). */
export const createPromoCode = (admin: User, promo: NewPromoCode): Promise<PromoCode> =>
  call(admin, 'POST', '/api/admin/promo-codes', promoCodeSchema, {
    status: 201,
    json: {
      code: promo.code.trim().toUpperCase(),
      description: promo.description ?? null,
      discountType: promo.discountType,
      discountValue: String(promo.discountValue),
      maxUses: promo.maxUses ?? null,
      validFrom: null,
      validUntil: promo.validUntil ?? null,
      isActive: true,
    },
  });

export interface CourseChoice {
  /** A catalogue subject's name, e.g. "Calculus (Grade 11-12)". */
  subjectName: string;
  /** The package: its grade tier (grade_10_under, grade_11_12, university) and session count (4, 8, 12). */
  gradeTier: string;
  sessionCount: number;
  promoCode?: string;
}

interface Checkout {
  subjectId: string;
  packageId: string;
  packagePrice: number;
  promo: PromoValidation | null;
}

/** The subject and package by name from the public catalogue, and the code's price (POST /api/promo-codes/validate). */
async function checkoutFor(buyer: StudentHolder, choice: CourseChoice): Promise<Checkout> {
  const subjects = await call(buyer, 'GET', '/api/subjects', z.array(subjectSchema));
  const subject = subjects.find((s) => s.name === choice.subjectName);
  const packages = await call(buyer, 'GET', '/api/packages', z.array(packageSchema));
  const pkg = packages.find((p) => p.gradeTier.id === choice.gradeTier && p.sessionCount === choice.sessionCount);
  if (!subject || !pkg) throw new Error(`No subject "${choice.subjectName}" or ${choice.sessionCount}-session ${choice.gradeTier} package`);
  const promo = choice.promoCode
    ? await call(buyer, 'POST', '/api/promo-codes/validate', promoValidationSchema, {
        json: { code: choice.promoCode, packageId: pkg.id, userId: buyer.userId },
      })
    : null;
  return { subjectId: subject.id, packageId: pkg.id, packagePrice: pkg.totalPrice, promo };
}

/** The checkout page's POST /api/create-payment-intent body (the amounts as the page shows them). */
function intentBody(buyer: StudentHolder, checkout: Checkout) {
  const { promo } = checkout;
  return {
    packageId: checkout.packageId,
    subjectId: checkout.subjectId,
    studentId: buyer.studentId,
    email: buyer.email,
    amount: promo ? promo.finalPrice : checkout.packagePrice,
    ...(promo
      ? {
          promoCodeId: promo.promoCode.id,
          originalAmount: promo.originalPrice,
          discountAmount: promo.discountAmount,
          finalAmount: promo.finalPrice,
        }
      : {}),
  };
}

export interface Purchased {
  courseId: string;
  purchaseId: string;
  subjectId: string;
  packageId: string;
  /** Dollars charged (after the code). */
  amount: number;
  originalPrice: number;
  discountAmount: number;
  /** `free_purchase` when nothing was owed (no card). */
  clientSecret: string;
}

/**
 * The real checkout: the code's price, the payment intent, the sandbox card form with the test card
 * (POST /api/sandbox/payments/{id}/confirm), then POST /api/confirm-payment, which answers once the
 * course exists. A free purchase (100% code) completes at the intent.
 */
export async function purchaseCourse(buyer: StudentHolder, choice: CourseChoice, card = TEST_CARD): Promise<Purchased> {
  const checkout = await checkoutFor(buyer, choice);
  const intent = await call(buyer, 'POST', '/api/create-payment-intent', paymentIntentAnswerSchema, { json: intentBody(buyer, checkout) });
  const priced = {
    purchaseId: intent.purchaseId,
    subjectId: checkout.subjectId,
    packageId: checkout.packageId,
    amount: intent.amount,
    originalPrice: checkout.promo?.originalPrice ?? checkout.packagePrice,
    discountAmount: checkout.promo?.discountAmount ?? 0,
    clientSecret: intent.clientSecret,
  };
  if (!intent.paymentIntentId) {
    const course = await eventually('the free purchase’s course', async () =>
      (await studentCourses(buyer)).find((c) => c.purchaseId === intent.purchaseId),
    );
    return { ...priced, courseId: course.id };
  }
  const cardAnswer = z.object({ status: z.string(), message: z.string().optional() });
  const paid = await call(buyer, 'POST', `/api/sandbox/payments/${enc(intent.paymentIntentId)}/confirm`, cardAnswer, {
    json: { cardNumber: card.replace(/\s+/g, '') },
  });
  if (paid.status !== 'succeeded') throw new Error(`The sandbox card ${card} was answered ${paid.status}: ${paid.message ?? ''}`);
  const confirmed = await call(buyer, 'POST', '/api/confirm-payment', confirmPaymentAnswerSchema, {
    json: {
      paymentIntentId: intent.paymentIntentId,
      packageId: checkout.packageId,
      subjectId: checkout.subjectId,
      studentId: buyer.studentId,
      amount: intent.amount,
    },
  });
  return { ...priced, courseId: confirmed.enrollmentData.courseId };
}

/**
 * The next enrolment's POST /api/create-payment-intent (the Add Course dialog's checkout), which the
 * rule "select a tutor for your current course before enrolling in a new one" guards: 200 with the
 * intent (left unpaid), or 409 with the rule's message.
 */
export async function startNextEnrolment(buyer: StudentHolder, choice: CourseChoice) {
  const checkout = await checkoutFor(buyer, choice);
  return outcome(buyer, 'POST', '/api/create-payment-intent', paymentIntentAnswerSchema, {
    status: 200,
    json: intentBody(buyer, checkout),
  });
}

export const studentCourses = (holder: StudentHolder): Promise<StudentCourse[]> =>
  call(holder, 'GET', `/api/student/${enc(holder.studentId)}/courses`, z.array(studentCourseSchema));

async function courseOf(holder: StudentHolder, courseId: string): Promise<StudentCourse> {
  const course = (await studentCourses(holder)).find((c) => c.id === courseId);
  if (!course) throw new Error(`Course ${courseId} is not among student ${holder.studentId}'s courses`);
  return course;
}

/** The tutor selection page's list: GET /api/tutors?subjectId= for the course's subject. */
export async function tutorsForCourse(holder: StudentHolder, courseId: string): Promise<TutorListEntry[]> {
  const course = await courseOf(holder, courseId);
  return call(holder, 'GET', `/api/tutors?subjectId=${enc(course.subjectId)}`, z.array(tutorListEntrySchema));
}

/** "Select This Tutor": PATCH /api/student-courses/{studentId}/{subjectId} {tutorId, status: enrolled}. */
export async function selectTutor(holder: StudentHolder, courseId: string, tutorId: string): Promise<StudentCourse> {
  const course = await courseOf(holder, courseId);
  const path = `/api/student-courses/${enc(holder.studentId)}/${enc(course.subjectId)}`;
  return call(holder, 'PATCH', path, studentCourseSchema, { json: { tutorId, status: 'enrolled' } });
}

/** The first-session step's end (booked or skipped): PATCH … {status: active}. */
export async function startCourse(holder: StudentHolder, courseId: string): Promise<StudentCourse> {
  const course = await courseOf(holder, courseId);
  const path = `/api/student-courses/${enc(holder.studentId)}/${enc(course.subjectId)}`;
  return call(holder, 'PATCH', path, studentCourseSchema, { json: { status: 'active' } });
}

/** GET /api/student/dashboard: what the student (or their parent: ?studentId=) sees. */
export const dashboard = (holder: StudentHolder) =>
  call(holder, 'GET', `/api/student/dashboard?studentId=${enc(holder.studentId)}`, studentDashboardSchema);

export interface CourseCredits {
  total: number;
  remaining: number;
  /** Completed or forfeited: total minus remaining (booked sessions hold theirs until then). */
  used: number;
  completed: number;
  upcoming: number;
}

/** A course's sessions as the dashboard shows them (its progress bar and counts), from the dashboard's own call. */
export async function courseCredits(holder: StudentHolder, courseId: string): Promise<CourseCredits> {
  const data = await dashboard(holder);
  const course = data.courses.find((c) => c.id === courseId);
  if (!course) throw new Error(`The dashboard of student ${holder.studentId} has no course ${courseId}`);
  const own = data.sessions.filter((s) => s.courseId === courseId);
  return {
    total: course.totalSessions,
    remaining: course.sessionsRemaining,
    used: Math.max(0, course.totalSessions - course.sessionsRemaining),
    completed: own.filter((s) => s.status === 'completed').length,
    upcoming: own.filter((s) => s.status !== 'completed' && s.status !== 'cancelled').length,
  };
}

/** The student's sessions as the dashboard lists them (with the Meet link once the calendar saga added it). */
export async function studentSessions(holder: StudentHolder): Promise<StudentSession[]> {
  return (await dashboard(holder)).sessions;
}

// ---------------------------------------------------------------------------------------------
// Sessions

export interface FreeSlot {
  /** "HH:mm" New York time, as the booking grid shows it. */
  time: string;
  /** The start as an ISO instant (the booking's `date`). */
  start: string;
}

/** The booking start of spec part 2 §5: the date with the slot's hour in New York time, as an instant. */
export const newYorkStart = (date: string, time: string): string =>
  Temporal.PlainDateTime.from(`${date}T${time}:00`).toZonedDateTime(BOOKING_ZONE, { disambiguation: 'compatible' }).toInstant().toString();

/** The booking dialog's grid: GET /api/tutors/{id}/available-slots?date=yyyy-MM-dd (New York date). */
export async function freeSlots(client: User, tutorId: string, date: string): Promise<FreeSlot[]> {
  const slots = await call(client, 'GET', `/api/tutors/${enc(tutorId)}/available-slots?date=${enc(date)}`, z.array(bookingSlotSchema));
  return slots.map(({ time }) => ({ time, start: newYorkStart(date, time) }));
}

export type BookedSession = z.output<typeof bookedSessionSchema>;

/** "Book Session": POST /api/book-session (201 with the session, or 409 for a taken hour or no credit left). */
export const book = (
  holder: StudentHolder,
  booking: { tutorId: string; courseId: string; start: string; notes?: string },
  idempotencyKey?: string,
): Promise<Outcome<BookedSession>> =>
  outcome(holder, 'POST', '/api/book-session', bookedSessionSchema, {
    status: 201,
    idempotencyKey,
    json: { tutorId: booking.tutorId, studentCourseId: booking.courseId, date: booking.start, duration: 60, notes: booking.notes ?? '' },
  });

/** "Confirm Reschedule": PATCH /api/sessions/{id}/reschedule {newDate: local yyyy-MM-ddTHH:mm, updateCalendar, timezone}. */
export const reschedule = (
  user: User,
  sessionId: string,
  to: { date: string; time: string; timezone?: string },
  idempotencyKey?: string,
): Promise<Outcome<TutorSession>> =>
  outcome(user, 'PATCH', `/api/sessions/${enc(sessionId)}/reschedule`, tutorSessionSchema, {
    status: 200,
    idempotencyKey,
    json: { newDate: `${to.date}T${to.time}`, updateCalendar: true, timezone: to.timezone ?? BOOKING_ZONE },
  });

const cancelAnswerSchema = z.object({
  id: z.string(),
  status: z.literal('cancelled'),
  /** released: the credit came back (more than 12 hours' notice); forfeited: it counts as used. */
  credit: z.enum(['released', 'forfeited']).nullable(),
});
export type CancelAnswer = z.output<typeof cancelAnswerSchema>;

/** POST /api/sessions/{id}/cancel {reason}: the answer says whether the credit was released or forfeited. */
export const cancel = (
  user: User,
  sessionId: string,
  reason = 'Journey cancellation',
  idempotencyKey?: string,
): Promise<Outcome<CancelAnswer>> =>
  outcome(user, 'POST', `/api/sessions/${enc(sessionId)}/cancel`, cancelAnswerSchema, { status: 200, idempotencyKey, json: { reason } });

/** The tutor's Complete dialog: PATCH /api/sessions/{id}/complete {completed, notes} (409 before the start). */
export const complete = (tutor: User, sessionId: string, notes: string, idempotencyKey?: string): Promise<Outcome<TutorSession>> =>
  outcome(tutor, 'PATCH', `/api/sessions/${enc(sessionId)}/complete`, tutorSessionSchema, {
    status: 200,
    idempotencyKey,
    json: { completed: true, notes },
  });

/** The tutor's sessions list: GET /api/sessions/tutor/{tutorId}. */
export const tutorSessions = (tutor: User): Promise<TutorSession[]> =>
  call(tutor, 'GET', `/api/sessions/tutor/${enc(tutor.userId)}`, z.array(tutorSessionSchema));

// ---------------------------------------------------------------------------------------------
// Console: refunds and payouts

/** The refund dialog's figures: GET /api/admin/purchases/{id}/refund. */
export const refundQuote = (admin: User, purchaseId: string): Promise<RefundQuoteView> =>
  call(admin, 'GET', `/api/admin/purchases/${enc(purchaseId)}/refund`, refundQuoteSchema);

/** The console's refund: POST /api/admin/purchases/{id}/refund {reason}; the server decides amount and credits. */
export const refund = (admin: User, purchaseId: string, reason = 'Journey refund', idempotencyKey?: string): Promise<RefundAnswer> =>
  call(admin, 'POST', `/api/admin/purchases/${enc(purchaseId)}/refund`, refundAnswerSchema, { idempotencyKey, json: { reason } });

/** The Payouts tab: GET /api/admin/payouts?period=yyyy-MM-dd (the period holding that day; default the last ended). */
export const payoutsFor = (staff: User, period?: string): Promise<PayoutPeriodView> =>
  call(staff, 'GET', period ? `/api/admin/payouts?period=${enc(period)}` : '/api/admin/payouts', payoutPeriodViewSchema);
