import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendBookedSession,
  appendRescheduled,
  hourFromNow,
  registeredParent,
  registeredStudent,
  type SessionParties,
} from '../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { approvedTutor } from '../../../tests/support/tutors.ts';
import type { KeptMail } from '../../adapters/mail/mailer.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { changeNotificationPreferences } from '../../commands/notices/notices.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { type SessionNoticeDeps, sendSessionNotice } from './sessionNotices.ts';
import { sendSessionReminder } from './sessionReminders.ts';

/**
 * The e-mail settings are read when a notice is sent (docs/sessions-calendar.md "Notification
 * settings"): a kind the reader turned off is not mailed to them, the other reader still gets it,
 * and the bell lists it for both.
 */
describe('session notices honour each reader’s e-mail settings', () => {
  let system: TestSystem;
  let parties: SessionParties;
  let parentId: string;
  let parentEmail: string;
  let tutorEmail: string;

  const deps = (): SessionNoticeDeps => ({
    sql: system.sql,
    store: system.store,
    mailer: system.mailer,
    mailFrom: system.config.MAIL_FROM,
    publicUrl: system.config.PUBLIC_URL,
  });
  const mails = async (to: string, prefix: string): Promise<KeptMail[]> =>
    ((await system.mailer.mailbox?.list({ limit: 500, to })) ?? []).filter((m) => m.subject.startsWith(prefix));
  const lastEventId = async (sessionId: string) => ((await system.store.readStream(`session-${sessionId}`)).at(-1) as { id: string }).id;

  beforeAll(async () => {
    system = await createTestSystem('all');
    parentEmail = 'prefs-parent@example.com';
    ({ userId: parentId } = await registeredParent(system, 'prefs-parent', { email: parentEmail }));
    const kid = await registeredStudent(system, 'prefs-kid', { parentId });
    const tutor = await approvedTutor(system, 'prefs', { firstName: 'Maya', lastName: 'Okafor' });
    tutorEmail = tutor.email;
    parties = { tutorId: tutor.tutorId, studentId: kid.studentId, studentUserId: kid.userId };
    expect(await waitForProjections(system.sql, ['users', 'students'], await system.store.committedPosition(), 30_000)).toBe(true);
  }, 60_000);
  afterAll(() => system.dispose());

  it('does not mail a turned-off kind to that reader, mails the other, and lists it in both bells', async () => {
    await changeNotificationPreferences(
      system.store,
      parties.tutorId,
      { sessionBooked: false },
      commandContext({ now: system.clock.now() }),
    );
    const start = hourFromNow(72);
    const sessionId = await appendBookedSession(system.store, parties, start, { subjectName: 'Geometry' });
    expect(await sendSessionNotice(deps(), { sessionId, eventId: await lastEventId(sessionId) })).toBe('sent');
    expect(await mails(parentEmail, 'Session booked: Geometry')).toHaveLength(1);
    expect(await mails(tutorEmail, 'Session booked: Geometry')).toHaveLength(0);

    // Turned back on: the next change is mailed to the tutor again.
    await changeNotificationPreferences(
      system.store,
      parties.tutorId,
      { sessionBooked: true, sessionRescheduled: true },
      commandContext({ now: system.clock.now() }),
    );
    await appendRescheduled(system.store, { ...parties, sessionId }, start, hourFromNow(96), 0);
    await sendSessionNotice(deps(), { sessionId, eventId: await lastEventId(sessionId) });
    expect(await mails(tutorEmail, 'Session moved: Geometry')).toHaveLength(1);

    expect(await waitForProjections(system.sql, ['notices'], await system.store.committedPosition(), 30_000)).toBe(true);
    const listed = await system.sql<{ user_id: string; title: string }[]>`
      SELECT user_id, title FROM notices WHERE title = 'Session booked: Geometry' ORDER BY user_id`;
    expect(listed.map((r) => r.user_id).sort()).toEqual([parentId, parties.tutorId].sort());
  });

  it('does not mail reminders to a reader who turned them off', async () => {
    await changeNotificationPreferences(system.store, parentId, { sessionReminders: false }, commandContext({ now: system.clock.now() }));
    const start = hourFromNow(30);
    const sessionId = await appendBookedSession(system.store, parties, start, { subjectName: 'Biology' });
    expect(await sendSessionReminder(deps(), { sessionId, start, kind: 'day' })).toBe('sent');
    const reminders = async (to: string) =>
      (await mails(to, 'Reminder: your Topmark session is tomorrow')).filter((m) => m.text.includes('Biology'));
    expect(await reminders(tutorEmail)).toHaveLength(1);
    expect(await reminders(parentEmail)).toHaveLength(0);
  });
});
