import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { projectors } from '../projectors.ts';
import { enrollmentStatus, findCourse, findStudentCourse, listStudentCourses } from './queries.ts';
import { studentCoursesProjector } from './studentCoursesProjector.ts';
import { studentCourses } from './tables.ts';

const at = '2026-11-23T12:00:00.000Z';
const stream = (courseId: string) => `course-${courseId}`;
const enrolled = (courseId: string, subjectId: string, credits = 4) =>
  event(stream(courseId), 'CourseEnrolled', {
    courseId,
    studentId: 's1',
    subjectId,
    packageId: 'pkg',
    purchaseId: `buy-${courseId}`,
    credits,
    at,
  });
const credit = (
  type: 'CourseCreditReserved' | 'CourseCreditReleased' | 'CourseCreditConsumed' | 'CourseCreditForfeited',
  courseId: string,
  sessionId: string,
) => event(stream(courseId), type, { courseId, sessionId, at });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('student courses, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('courses');
    await migrate(db.sql);
    // Every read model: the queries join subjects, packages and tutors' names.
    spec = await projectionSpec(db.sql, projectors, { batchSize });
    expect(projectors).toContain(studentCoursesProjector);
  });
  afterAll(() => db.drop());

  it('keeps sessionsRemaining = bought − reserved − used, the tutor and the status', async () => {
    await spec.given(
      enrolled('c1', 'math', 2),
      event(stream('c1'), 'CourseTutorChosen', { courseId: 'c1', tutorId: 't1', at }),
      event(stream('c1'), 'CourseActivated', { courseId: 'c1', at }),
      credit('CourseCreditReserved', 'c1', 'x1'),
      credit('CourseCreditReserved', 'c1', 'x2'),
      credit('CourseCreditReleased', 'c1', 'x2'),
      credit('CourseCreditConsumed', 'c1', 'x1'),
      event(stream('c1'), 'CourseCreditsAdded', { courseId: 'c1', packageId: 'pkg-8', purchaseId: 'buy-2', credits: 8, at }),
      credit('CourseCreditReserved', 'c1', 'x3'),
      credit('CourseCreditForfeited', 'c1', 'x3'),
      enrolled('c2', 'art'),
    );
    const [row] = await spec.rows(studentCourses, { id: 'c1' });
    expect(row).toMatchObject({
      tutor_id: 't1',
      status: 'active',
      package_id: 'pkg-8',
      total_sessions: 10,
      reserved_sessions: 0,
      used_sessions: 2,
      sessions_remaining: 8,
    });
    expect(await findCourse(db.sql, 'c2')).toEqual({
      id: 'c2',
      studentId: 's1',
      subjectId: 'art',
      packageId: 'pkg',
      status: 'enrolled',
      sessionsRemaining: 4,
    });
    expect(await findStudentCourse(db.sql, 's1', 'math')).toMatchObject({ id: 'c1' });
    expect(await findStudentCourse(db.sql, 's1', 'bio')).toBeNull();
    const courses = await listStudentCourses(db.sql, 's1');
    expect(courses.map((c) => [c.id, c.subject, c.tutor, c.sessionsRemaining])).toEqual([
      ['c1', { id: 'math', name: 'math' }, null, 8],
      ['c2', { id: 'art', name: 'art' }, null, 4],
    ]);
    expect(await enrollmentStatus(db.sql, 's1')).toEqual({
      canEnrollInNewCourse: false,
      pendingTutorSelections: [{ courseId: 'c2', subjectId: 'art', subjectName: 'art' }],
    });
  });

  it('an ended course frees the way', async () => {
    await spec.given(
      event(stream('c2'), 'CourseTutorChosen', { courseId: 'c2', tutorId: 't1', at }),
      event(stream('c2'), 'CourseEnded', { courseId: 'c2', at }),
    );
    expect(await enrollmentStatus(db.sql, 's1')).toEqual({ canEnrollInNewCourse: true, pendingTutorSelections: [] });
    expect((await findCourse(db.sql, 'c2'))?.status).toBe('inactive');
  });

  it('counts booked apart from used and left: every session booked, then a refund of the unbooked ones, then a pending repurchase', async () => {
    const pendingRepurchase = (purchaseId: string) => event(stream('c3'), 'CourseRepurchasePending', { courseId: 'c3', purchaseId, at });
    await spec.given(
      enrolled('c3', 'chem', 4),
      event(stream('c3'), 'CourseTutorChosen', { courseId: 'c3', tutorId: 't1', at }),
      event(stream('c3'), 'CourseActivated', { courseId: 'c3', at }),
      credit('CourseCreditReserved', 'c3', 'y1'),
      credit('CourseCreditReserved', 'c3', 'y2'),
    );
    const card = async () => (await listStudentCourses(db.sql, 's1')).find((c) => c.id === 'c3');
    expect(await card()).toMatchObject({
      totalSessions: 4,
      sessionsUsed: 0,
      sessionsBooked: 2,
      sessionsRemaining: 2,
      repurchasePending: false,
    });
    // The refund takes the two credits no session holds; the two booked sessions are still ahead, not used.
    await spec.given(event(stream('c3'), 'CourseCreditsRemoved', { courseId: 'c3', purchaseId: 'buy-c3', credits: 2, at }));
    expect(await card()).toMatchObject({ totalSessions: 2, sessionsUsed: 0, sessionsBooked: 2, sessionsRemaining: 0 });
    await spec.given(credit('CourseCreditConsumed', 'c3', 'y1'));
    expect(await card()).toMatchObject({ sessionsUsed: 1, sessionsBooked: 1, sessionsRemaining: 0 });
    await spec.given(pendingRepurchase('buy-r1'));
    expect((await card())?.repurchasePending).toBe(true);
    // Another purchase's end leaves the mark; its own end clears it.
    await spec.given(event(stream('c3'), 'CourseRepurchaseCleared', { courseId: 'c3', purchaseId: 'buy-other', outcome: 'abandoned', at }));
    expect((await card())?.repurchasePending).toBe(true);
    await spec.given(event(stream('c3'), 'CourseRepurchaseCleared', { courseId: 'c3', purchaseId: 'buy-r1', outcome: 'failed', at }));
    expect((await card())?.repurchasePending).toBe(false);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
