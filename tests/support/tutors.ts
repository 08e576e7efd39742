import { registerAccount } from '../../src/commands/accounts/registerUser.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { openTutorCalendar } from '../../src/commands/tutors/tutorCalendar.ts';
import { tutorHandlers } from '../../src/commands/tutors/tutorHandlers.ts';
import type { WeeklyHours } from '../../src/domain/calendar/availability.ts';
import { isHoursEvent } from '../../src/domain/calendar/calendarHours.ts';
import { waitForProjections } from '../../src/projections/runner/projectionRunner.ts';
import type { System } from '../../src/system.ts';

export interface ApprovedTutor {
  tutorId: string;
  userId: string;
  email: string;
  /** `tm_session=…` for the tutor's requests. */
  cookie: string;
}

/**
 * A tutor as approval leaves one (a Google account with the tutor role and a profile with
 * onboarding to do), signed in; without the application and review steps, which
 * `tutorRoutes.test.ts` covers. `n` keeps usernames and addresses apart within a database.
 */
export async function approvedTutor(
  system: Pick<System, 'accounts' | 'store' | 'sql' | 'signIns' | 'clock'>,
  n: string,
  name: { firstName: string; lastName: string } = { firstName: 'Tess', lastName: `Tutor${n}` },
): Promise<ApprovedTutor> {
  const email = `tutor-${n}@example.com`;
  const { userId } = await registerAccount(
    system.accounts,
    {
      username: `tutor-${n}`,
      email,
      password: null,
      role: 'tutor',
      ...name,
      phone: null,
      authProvider: 'google',
      googleId: `google-tutor-${n}`,
      emailVerified: true,
      termsAccepted: null,
    },
    commandContext({ now: system.clock.now() }),
  );
  await tutorHandlers(system.store).tutors.handle(
    userId,
    { type: 'CreateTutorProfile', data: { tutorId: userId, userId, applicationId: `application-${n}` } },
    commandContext({ now: system.clock.now() }),
  );
  if (!(await waitForProjections(system.sql, ['users', 'tutors'], await system.store.committedPosition(), 30_000)))
    throw new Error('the read models did not catch up with the tutor');
  const cookie = `tm_session=${(await system.signIns.create(userId, 'tutor')).token}`;
  return { tutorId: userId, userId, email, cookie };
}

/**
 * Sets the tutor's weekly hours as the editor does (the tutor stream's `SetWeeklyHours`) and waits
 * until the hours saga has written them to the tutor's calendar as "Topmark Hours": the calendar is
 * where the slots come from.
 */
export async function setWeeklyHours(
  system: Pick<System, 'store' | 'calendar' | 'clock'>,
  tutor: Pick<ApprovedTutor, 'tutorId' | 'userId'>,
  availability: WeeklyHours[],
  timeZone: string,
): Promise<void> {
  const { position } = await tutorHandlers(system.store).tutors.handle(
    tutor.tutorId,
    { type: 'SetWeeklyHours', data: { tutorId: tutor.tutorId, availability, timeZone } },
    commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() }),
  );
  const deadline = Date.now() + 30_000;
  const wanted = new Set(availability.map((h) => h.dayOfWeek)).size;
  for (;;) {
    const { calendar } = await openTutorCalendar({ store: system.store, calendar: system.calendar, clock: system.clock }, tutor.tutorId);
    const from = system.clock.now();
    const week = await calendar.listEvents({
      from: from.toISOString(),
      to: new Date(from.getTime() + 8 * 86_400_000).toISOString(),
      expand: true,
    });
    const days = new Set(week.filter((e) => isHoursEvent(e) && e.status !== 'cancelled').map((e) => JSON.stringify(e.start)));
    if (position && days.size >= wanted) return;
    if (Date.now() > deadline) throw new Error('the tutor’s hours did not reach their calendar');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A tutor of the public directory (approved, onboarded, account live) teaching the named subjects
 * of the seeded catalogue: the checkout sells only subjects a listed tutor teaches (issue 24), so a
 * test that buys a subject first gives it a tutor. Waits until the directory lists them.
 */
export async function listedTutorTeaching(
  system: Pick<System, 'accounts' | 'store' | 'sql' | 'signIns' | 'clock'>,
  n: string,
  subjectNames: readonly string[],
): Promise<ApprovedTutor> {
  const tutor = await approvedTutor(system, n);
  const rows = await system.sql<{ id: string; name: string; grade_level: string }[]>`
    SELECT id, name, grade_level FROM subjects WHERE is_active`;
  const catalog = rows.map((s) => ({ id: s.id, name: s.name }));
  const levelOf = new Map(rows.map((s) => [s.id, s.grade_level]));
  const qualifications = subjectNames.map((name) => {
    const subject = rows.find((s) => s.name === name);
    if (!subject) throw new Error(`no subject named ${name} in the catalogue (seed it first)`);
    return { subjectId: subject.id, maxGradeLevel: levelOf.get(subject.id) as 'grade_10_under' | 'grade_11_12' | 'university' };
  });
  const { tutors } = tutorHandlers(system.store);
  const { tutorId } = tutor;
  const ctx = () => commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() });
  await tutors.handle(tutorId, { type: 'EditTutorProfile', data: { tutorId, bio: 'Teaching for years.', experience: 4 } }, ctx());
  await tutors.handle(tutorId, { type: 'SetQualifications', data: { tutorId, qualifications, catalog } }, ctx());
  await tutors.handle(
    tutorId,
    { type: 'SetWeeklyHours', data: { tutorId, availability: [{ dayOfWeek: 1, startTime: '09:00', endTime: '12:00' }], timeZone: 'UTC' } },
    ctx(),
  );
  await tutors.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, ctx());
  if (!(await waitForProjections(system.sql, ['tutors'], await system.store.committedPosition(), 30_000)))
    throw new Error('the directory did not catch up with the tutor');
  return tutor;
}
