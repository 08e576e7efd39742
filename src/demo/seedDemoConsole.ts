import type { FastifyInstance, InjectOptions } from 'fastify';
import { courseLedger } from '../commands/courses/courseLedger.ts';
import { commandContext, deterministicUuid } from '../commands/kit/commandContext.ts';
import { bookSession } from '../commands/sessions/booking.ts';
import type { SessionPorts } from '../commands/sessions/ports.ts';
import { SCHEDULE_ATTEMPTS, sessionHandlers } from '../commands/sessions/sessionHandlers.ts';
import { cancelSession, completeSession } from '../commands/sessions/sessionLifecycle.ts';
import { tutorHandlers } from '../commands/tutors/tutorHandlers.ts';
import { billingPeriodOf, PAYOUT_TIME_ZONE } from '../domain/payouts/billingPeriod.ts';
import { findUserByLogin, studentsOfParent } from '../projections/accounts/queries.ts';
import type { System } from '../system.ts';

/**
 * A first start's console should not be empty (issue 12: "the demo data shows a populated
 * console"). The demo parent buys Sam a Calculus course through the API with the sandbox's test
 * card (and once with a declined card: a payment alert), chooses Maya, and books next week's
 * session through the API. The previous billing period's sessions are history, so they are
 * recorded through the same commands the routes use, with the commands' clock set at the time each
 * decision would have been taken: two sessions completed with reports, one cancelled too late (its
 * credit forfeited: a late-cancellation alert, and the tutor is paid for it); Maya's rate is set
 * and that period approved (a closed period for finance). Every command id is
 * fixed, so seeding twice records nothing twice. Runs once per data directory, after the demo
 * accounts and tutors (src/main.ts).
 */
export async function seedDemoConsole(
  system: System,
  app: FastifyInstance,
  accounts: { parent: { username: string; password: string }; admin: { username: string; password: string } },
) {
  const { parent } = accounts;
  const api = await signedIn(app, parent);
  const parentUser = await findUserByLogin(system.sql, parent.username);
  const [sam] = parentUser ? await studentsOfParent(system.sql, parentUser.id) : [];
  if (!parentUser || !sam) throw new Error('the demo parent and student must be seeded first');

  const subjects = await api.get<{ id: string; name: string }[]>('/api/subjects');
  const calculus = subjects.find((s) => s.name === 'Calculus (Grade 11-12)');
  const functions =
    subjects.find((s) => s.name === 'Advanced Functions (Grade 11-12)') ?? subjects.find((s) => s.name.startsWith('Advanced Functions'));
  const packages = await api.get<{ id: string; sessionCount: number; totalPrice: number; gradeTier: { id: string } }[]>('/api/packages');
  const eight = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 8);
  if (!calculus || !functions || !eight) throw new Error('the catalogue lacks Calculus, Advanced Functions or the 8-session package');
  const tutors = await api.get<{ id: string; user: { firstName: string } }[]>(`/api/tutors?subjectId=${calculus.id}`);
  const maya = tutors.find((t) => t.user.firstName === 'Maya');
  if (!maya) throw new Error('the demo tutor Maya must be seeded first');

  // A declined card first: the payment alert, no course.
  await pay(
    api,
    { studentId: sam.id, subjectId: functions.id, packageId: eight.id, amount: eight.totalPrice },
    '4000 0000 0000 0002',
    'declined',
  );
  // The declined checkout holds Sam's slot until its failure is handled (a checkout under way blocks the next enrolment).
  await slotReleased(system, sam.id);
  const paid = await pay(
    api,
    { studentId: sam.id, subjectId: calculus.id, packageId: eight.id, amount: eight.totalPrice },
    '4242 4242 4242 4242',
    'paid',
  );
  const courseId = paid.courseId;
  await api.patch(`/api/student-courses/${sam.id}/${calculus.id}`, { tutorId: maya.id, status: 'enrolled' });
  await api.patch(`/api/student-courses/${sam.id}/${calculus.id}`, { status: 'active' });

  // Maya's rate since before the last period, then that period's sessions, then its approval: a closed period.
  const admin = await signedIn(app, accounts.admin);
  const lastPeriod = previousPeriod(new Date());
  if ((await tutorHandlers(system.store).tutors.load(maya.id)).rates.length === 0)
    await admin.put(`/api/admin/tutors/${maya.id}/rate`, {
      hourlyRate: 45,
      effectiveFrom: new Date(lastPeriod.start.getTime() - 31 * 86_400_000).toISOString(),
      reason: 'Demo: rate agreed at approval',
    });
  await recordLastPeriod(system, { courseId, studentId: sam.id, studentUserId: parentUser.id, parentId: parentUser.id, tutorId: maya.id });
  await system.projections.catchUp(['payouts']);
  await admin.post(`/api/admin/payouts/${lastPeriod.firstDay}/approve`, {}, [409]);
  // Once: the first free hour moves on after a booking, so a second seeding would book another one.
  const upcoming = await system.sql`SELECT 1 FROM sessions WHERE course_id = ${courseId} AND status = 'scheduled' AND start_at > now()`;
  if (upcoming.length === 0) await bookNextWeek(api, maya.id, courseId);
}

interface Api {
  get<T>(url: string): Promise<T>;
  /** `accept`: statuses that are the expected answer (a declined card's 402). */
  post<T>(url: string, body: object, accept?: number[]): Promise<T>;
  patch<T>(url: string, body: object): Promise<T>;
  put<T>(url: string, body: object): Promise<T>;
}

async function signedIn(app: FastifyInstance, who: { username: string; password: string }): Promise<Api> {
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: who.username, password: who.password } });
  if (login.statusCode !== 200) throw new Error(`demo sign-in failed (${login.statusCode})`);
  const cookie = login.cookies
    .filter((c) => c.name === 'tm_session')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
  const call = async <T>(method: InjectOptions['method'], url: string, payload?: object, accept: number[] = []): Promise<T> => {
    const res = await app.inject({
      method,
      url,
      headers: { cookie, 'idempotency-key': deterministicUuid(`demo-console/${method}/${url}/${JSON.stringify(payload ?? null)}`) },
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode >= 400 && !accept.includes(res.statusCode)) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };
  return {
    get: (url) => call('GET', url),
    post: (url, body, accept) => call('POST', url, body, accept),
    patch: (url, body) => call('PATCH', url, body),
    put: (url, body) => call('PUT', url, body),
  };
}

/** Waits (up to 30 s) for the student's pending checkout slot to be given back by the purchase fulfilment. */
async function slotReleased(system: System, studentId: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { enrollments } = await system.accounts.handlers.students.load(studentId);
    if (!enrollments.some((e) => e.status === 'claimed')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the declined checkout still holds the slot');
}

/** Checkout as the browser does it: the intent, the sandbox's card form, the confirmation. */
async function pay(
  api: Api,
  order: { studentId: string; subjectId: string; packageId: string; amount: number },
  cardNumber: string,
  expect: 'paid' | 'declined',
): Promise<{ courseId: string }> {
  const intent = await api.post<{ paymentIntentId: string }>('/api/create-payment-intent', order);
  const card = await api.post<{ status: string }>(`/api/sandbox/payments/${intent.paymentIntentId}/confirm`, { cardNumber });
  if ((card.status === 'succeeded') !== (expect === 'paid')) throw new Error(`the test card ${cardNumber} answered ${card.status}`);
  const confirmed = await api.post<{ enrollmentData?: { courseId: string } }>(
    '/api/confirm-payment',
    { paymentIntentId: intent.paymentIntentId, ...order },
    expect === 'declined' ? [402] : [],
  );
  return { courseId: confirmed.enrollmentData?.courseId ?? '' };
}

interface Family {
  courseId: string;
  studentId: string;
  studentUserId: string;
  parentId: string;
  tutorId: string;
}

const previousPeriod = (now: Date) =>
  billingPeriodOf(new Date(billingPeriodOf(now, PAYOUT_TIME_ZONE).start.getTime() - 3_600_000), PAYOUT_TIME_ZONE);

/** Maya's weekday hours are 16:00–20:00 Toronto: 17:00 on the first weekdays of the previous billing period. */
function lastPeriodStarts(now: Date, count: number): Date[] {
  const zone = PAYOUT_TIME_ZONE;
  const previous = previousPeriod(now);
  const starts: Date[] = [];
  for (let t = previous.start.getTime() + 17 * 3_600_000; t < previous.end.getTime() && starts.length < count; t += 86_400_000) {
    const local = new Date(t).toLocaleDateString('en-US', { timeZone: zone, weekday: 'short' });
    // 17:00 local whatever the offset: the loop steps whole days from local midnight, so re-anchor on DST days.
    const hour = Number(new Date(t).toLocaleString('en-US', { timeZone: zone, hour: 'numeric', hour12: false }));
    const start = new Date(t + (17 - hour) * 3_600_000);
    if (!['Sat', 'Sun'].includes(local)) starts.push(start);
  }
  return starts;
}

async function recordLastPeriod(system: System, family: Family) {
  const handlers = sessionHandlers(system.store);
  const ledger = courseLedger(system.store, { maxAttempts: SCHEDULE_ATTEMPTS });
  const tutor = await tutorHandlers(system.store).tutors.load(family.tutorId);
  // Last period's calendar as it was: each session's hour lay in Maya's weekday hours (16:00–20:00
  // Toronto holds 17:00) and nothing else was in it.
  const ports: SessionPorts = {
    courses: ledger,
    tutor: async () => tutor,
    calendarTime: async (_tutorId, from, to) => ({ hours: [{ start: from, end: to }], busy: [] }),
  };
  const outcomes = [
    {
      notes: 'Limits and continuity',
      report: 'Worked through limit laws and one-sided limits; Sam is confident with factoring tricks. Next: continuity proofs.',
    },
    {
      notes: 'Derivatives from first principles',
      report: 'Derived power and product rules from the definition. Homework: 10 chain-rule exercises.',
    },
    { notes: 'Related rates', report: null },
  ];
  const starts = lastPeriodStarts(new Date(), outcomes.length);
  for (const [i, outcome] of outcomes.entries()) {
    const start = starts[i];
    if (!start) break;
    const at = (offsetMinutes: number, actor: { id: string; role: string }, step: string) =>
      commandContext({
        commandId: deterministicUuid(`demo-console/${family.courseId}/${i}/${step}`),
        actorId: actor.id,
        actorRole: actor.role,
        now: new Date(start.getTime() + offsetMinutes * 60_000),
      });
    const parent = { id: family.parentId, role: 'parent' };
    const { sessionId } = await bookSession(
      handlers,
      ports,
      {
        tutorId: family.tutorId,
        courseId: family.courseId,
        studentId: family.studentId,
        studentUserId: family.studentUserId,
        studentTimeZone: 'America/Toronto',
        subjectName: 'Calculus (Grade 11-12)',
        start: start.toISOString(),
        notes: outcome.notes,
      },
      at(-3 * 24 * 60, parent, 'book'),
    );
    if (outcome.report)
      await completeSession(
        handlers,
        ports,
        { sessionId, notes: outcome.report },
        at(65, { id: tutor.userId ?? family.tutorId, role: 'tutor' }, 'complete'),
      );
    else await cancelSession(handlers, ports, { sessionId, reason: 'Sam is unwell' }, at(-3 * 60, parent, 'cancel'));
  }
}

/** The first free hour of Maya's next week, booked as the family would in the dialog. */
async function bookNextWeek(api: Api, tutorId: string, courseId: string) {
  for (let days = 7; days <= 14; days++) {
    const day = new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/Toronto' });
    const { slots } = await api.get<{ slots: { start: string }[] }>(
      `/api/tutors/${tutorId}/availability/${day}?timezone=America%2FToronto`,
    );
    const [first] = slots;
    if (!first) continue;
    await api.post('/api/book-session', {
      tutorId,
      studentCourseId: courseId,
      date: first.start,
      duration: 60,
      notes: 'Optimisation problems',
    });
    return;
  }
}
