import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { migrate } from '../../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../../kit/projectionSpec.ts';
import { alertsProjector } from './alertsProjector.ts';
import { alerts } from './tables.ts';

const at = '2026-06-01T00:00:00.000Z';

/** Issue 24: a family whose tutor leaves, or whose subject loses its last tutor, shows in the console. */
describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('course tutor alerts, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('alerts_course_tutors');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [alertsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  /** Two listed tutors of Calculus (Maya also Physics); three open courses: Maya's Calculus, Maya's Physics, one awaiting a tutor in Physics. */
  async function given() {
    const [calculus, physics, maya, omar] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const course = () => ({ courseId: randomUUID(), studentId: randomUUID(), purchaseId: randomUUID() });
    const [c1, c2, c3] = [course(), course(), course()];
    const enrolled = (c: ReturnType<typeof course>, subjectId: string) =>
      event(`course-${c.courseId}`, 'CourseEnrolled', { ...c, subjectId, packageId: 'p', credits: 4, at });
    const tutor = (id: string, subjects: string[]) => [
      event(`tutor-${id}`, 'TutorProfileCreated', {
        tutorId: id,
        userId: id,
        applicationId: 'a',
        hourlyRate: null,
        onboardingCompleted: false,
        at,
      }),
      event(`tutor-${id}`, 'TutorQualificationsSet', {
        tutorId: id,
        userId: id,
        qualifications: subjects.map((subjectId) => ({ subjectId, maxGradeLevel: 'grade_11_12' as const })),
        at,
      }),
      event(`tutor-${id}`, 'TutorOnboardingCompleted', { tutorId: id, userId: id, at }),
    ];
    await spec.given(
      event(`subject-${calculus}`, 'SubjectAdded', {
        subjectId: calculus,
        name: 'Calculus (Grade 11-12)',
        description: null,
        category: 'Mathematics',
        gradeLevel: 'grade_11_12',
        at,
      }),
      event(`subject-${physics}`, 'SubjectAdded', {
        subjectId: physics,
        name: 'Physics (Grade 11-12)',
        description: null,
        category: 'Science',
        gradeLevel: 'grade_11_12',
        at,
      }),
      ...tutor(maya, [calculus, physics]),
      ...tutor(omar, [calculus]),
      enrolled(c1, calculus),
      event(`course-${c1.courseId}`, 'CourseTutorChosen', { courseId: c1.courseId, tutorId: maya, at }),
      enrolled(c2, physics),
      event(`course-${c2.courseId}`, 'CourseTutorChosen', { courseId: c2.courseId, tutorId: maya, at }),
      enrolled(c3, physics),
    );
    return { calculus, physics, maya, omar, c1, c2, c3 };
  }

  const ofCourse = async (courseId: string) =>
    (await spec.rows(alerts)).filter((r) => (r.metadata as { courseId?: string } | null)?.courseId === courseId);

  it('a deactivated tutor: each of their courses gets a tutor_left alert with the student and purchase; the subject left without a tutor says so for its other course', async () => {
    const { maya, c1, c2, c3 } = await given();
    await spec.given(event(`user-${maya}`, 'UserDeactivated', { userId: maya, reason: 'left the platform', at }));
    const [calc] = await ofCourse(c1.courseId);
    expect(calc).toMatchObject({
      type: 'tutor_left',
      severity: 'medium',
      student_id: c1.studentId,
      purchase_id: c1.purchaseId,
      user_id: maya,
      title: "A family's tutor left: Calculus (Grade 11-12)",
      is_resolved: false,
    });
    expect(calc?.description).toContain('was deactivated by an admin');
    expect(calc?.description).toContain('choose another tutor');
    const [phys] = await ofCourse(c2.courseId);
    expect(phys).toMatchObject({ type: 'tutor_left', severity: 'high', purchase_id: c2.purchaseId });
    expect(phys?.description).toContain('No other tutor teaches Physics (Grade 11-12)');
    const [waiting] = await ofCourse(c3.courseId);
    expect(waiting).toMatchObject({
      type: 'subject_without_tutor',
      title: 'No tutor teaches Physics (Grade 11-12) any more',
      student_id: c3.studentId,
      purchase_id: c3.purchaseId,
    });
  });

  it('choosing another tutor closes the course’s alert; a course that ended raises nothing', async () => {
    const { maya, omar, c1, c2 } = await given();
    await spec.given(event(`course-${c2.courseId}`, 'CourseEnded', { courseId: c2.courseId, at }));
    await spec.given(event(`user-${maya}`, 'AccountDeleted', { userId: maya, at }));
    expect(await ofCourse(c2.courseId)).toEqual([]);
    expect((await ofCourse(c1.courseId))[0]?.description).toContain('deleted their account');
    await spec.given(event(`course-${c1.courseId}`, 'CourseTutorChosen', { courseId: c1.courseId, tutorId: omar, at }));
    expect(await ofCourse(c1.courseId)).toMatchObject([{ type: 'tutor_left', is_resolved: true, resolved_by: 'system' }]);
  });

  it('a tutor who drops a subject raises alerts for that subject only; an unlisted tutor raises none', async () => {
    const { calculus, maya, c1, c2 } = await given();
    await spec.given(
      event(`tutor-${maya}`, 'TutorQualificationsSet', {
        tutorId: maya,
        userId: maya,
        qualifications: [{ subjectId: calculus, maxGradeLevel: 'grade_11_12' }],
        at,
      }),
    );
    expect(await ofCourse(c1.courseId)).toEqual([]);
    expect((await ofCourse(c2.courseId))[0]?.description).toContain('no longer teaches Physics (Grade 11-12)');
    // Deactivated twice: the second finds nothing listed to lose.
    await spec.given(event(`user-${maya}`, 'UserDeactivated', { userId: maya, reason: 'x', at }));
    await spec.given(event(`user-${maya}`, 'UserDeactivated', { userId: maya, reason: 'y', at }));
    expect(await ofCourse(c1.courseId)).toHaveLength(1);
    // Reactivated: the deactivation's alert is closed; the dropped subject's stays open.
    await spec.given(event(`user-${maya}`, 'UserReactivated', { userId: maya, reason: 'back', at }));
    expect(await ofCourse(c1.courseId)).toMatchObject([{ is_resolved: true, resolved_by: 'system' }]);
    expect(await ofCourse(c2.courseId)).toMatchObject([{ is_resolved: false }]);
  });
});
