import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { projectors } from '../projectors.ts';
import { findSession, listStudentSessions, listTutorSessions } from './queries.ts';
import { sessionsProjector } from './sessionsProjector.ts';

const at = '2026-11-23T12:00:00.000Z';
const booked = (sessionId: string, start: string, notes = 'Math tutoring session') =>
  event(`session-${sessionId}`, 'SessionBooked', {
    sessionId,
    tutorId: 't1',
    studentId: 'st1',
    studentUserId: 'u1',
    courseId: 'c1',
    subjectId: 'math',
    subjectName: 'Math',
    start,
    end: new Date(Date.parse(start) + 3_600_000).toISOString(),
    durationMinutes: 60,
    notes,
    bookedBy: 'u1',
    bookedByRole: 'student',
    tutorTimeZone: 'America/New_York',
    studentTimeZone: 'America/Toronto',
    at,
  });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('sessions read model, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('sessions');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, projectors, { batchSize });
    expect(projectors).toContain(sessionsProjector);
  });
  afterAll(() => db.drop());

  it('lists booked, moved and completed sessions to the tutor and the student, oldest first; cancelled ones to neither', async () => {
    await spec.given(
      booked('s1', '2026-12-01T14:00:00.000Z'),
      booked('s2', '2026-12-02T14:00:00.000Z', 'Limits'),
      booked('s3', '2026-12-03T14:00:00.000Z'),
      event('session-s2', 'SessionRescheduled', {
        sessionId: 's2',
        tutorId: 't1',
        studentId: 'st1',
        previousStart: '2026-12-02T14:00:00.000Z',
        previousEnd: '2026-12-02T15:00:00.000Z',
        start: '2026-11-30T14:00:00.000Z',
        end: '2026-11-30T15:00:00.000Z',
        rescheduledBy: 't1',
        rescheduledByRole: 'tutor',
        timeZone: 'America/New_York',
        at,
      }),
      event('session-s1', 'SessionCompleted', {
        sessionId: 's1',
        tutorId: 't1',
        studentId: 'st1',
        studentUserId: 'u1',
        courseId: 'c1',
        completedBy: 't1',
        notes: 'Worked through derivatives.',
        at: '2026-12-01T15:00:00.000Z',
      }),
      event('session-s3', 'SessionCancelled', {
        sessionId: 's3',
        tutorId: 't1',
        studentId: 'st1',
        courseId: 'c1',
        start: '2026-12-03T14:00:00.000Z',
        end: '2026-12-03T15:00:00.000Z',
        cancelledBy: 'u1',
        cancelledByRole: 'student',
        reason: '',
        noticeMinutes: 100,
        credit: 'forfeited',
        tutorTimeZone: 'America/New_York',
        studentTimeZone: 'America/Toronto',
        at,
      }),
    );
    const tutor = await listTutorSessions(db.sql, 't1');
    expect(tutor.map((s) => [s.id, s.date, s.status, s.notes])).toEqual([
      ['s2', '2026-11-30T14:00:00.000Z', 'scheduled', 'Limits'],
      ['s1', '2026-12-01T14:00:00.000Z', 'completed', 'Worked through derivatives.'],
    ]);
    expect(tutor[0]).toMatchObject({
      tutorId: 't1',
      subject: { name: 'Math' },
      duration: 60,
      meetingLink: null,
      googleCalendarEventId: null,
    });
    const student = await listStudentSessions(db.sql, 'st1');
    expect(student.map((s) => s.id)).toEqual(['s2', 's1']);
    expect(student[1]).toMatchObject({ status: 'completed', notes: 'Worked through derivatives.', tutor: { id: 't1' }, courseId: 'c1' });
    expect(await findSession(db.sql, 's3')).toMatchObject({ status: 'cancelled', courseId: 'c1' });
    expect(await findSession(db.sql, 'nope')).toBeNull();

    await spec.given(event('student-st1', 'StudentProfileErased', { studentId: 'st1', userId: 'u1', at }));
    expect((await listTutorSessions(db.sql, 't1')).map((s) => s.notes)).toEqual([null, null]);
    expect(spec.failures()).toEqual([]);
  });
});
