import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userRegistered } from '../../../tests/support/accountEvents.ts';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import { usersProjector } from '../accounts/usersProjector.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { payoutsProjector } from '../payouts/payoutsProjector.ts';
import { tutorReviewsProjector } from '../reviews/reviewsProjector.ts';
import { subjectsProjector } from '../subjects/subjectsProjector.ts';
import { findTutorPicture, findTutorProfile, listDirectory, listTutorSubjects } from './queries.ts';
import { tutorsProjector } from './tutorsProjector.ts';

const at = '2026-11-23T12:00:00.000Z';
const hash = `${'c0ffee'.repeat(10)}abcd`;

let db: TestDatabase;
let spec: ProjectionSpec;
beforeAll(async () => {
  db = await createTestDatabase('tutordirectory');
  await migrate(db.sql);
  // The directory reads each tutor's figures from the reviews read model; a profile's rate is the payouts read model's.
  spec = await projectionSpec(db.sql, [usersProjector, subjectsProjector, tutorsProjector, tutorReviewsProjector, payoutsProjector]);
  const subject = (id: string, name: string, gradeLevel: GradeLevel, category: string) =>
    event(`subject-${id}`, 'SubjectAdded', { subjectId: id, name, description: null, category, gradeLevel, at });
  const tutor = (id: string, firstName: string, subjects: [string, GradeLevel][], onboarded = true) => {
    const { data } = userRegistered(id, at, { role: 'tutor', username: `t-${id}`, email: `${id}@example.com`, firstName, lastName: 'T' });
    return [
      event(`user-${id}`, 'UserRegistered', data),
      event(`tutor-${id}`, 'TutorProfileCreated', {
        tutorId: id,
        userId: id,
        applicationId: `a-${id}`,
        hourlyRate: 40,
        onboardingCompleted: false,
        at,
      }),
      event(`tutor-${id}`, 'TutorProfileEdited', { tutorId: id, userId: id, bio: `${firstName} teaches`, experience: 5, at }),
      event(`tutor-${id}`, 'TutorQualificationsSet', {
        tutorId: id,
        userId: id,
        qualifications: subjects.map(([subjectId, maxGradeLevel]) => ({ subjectId, maxGradeLevel })),
        at,
      }),
      ...(onboarded ? [event(`tutor-${id}`, 'TutorOnboardingCompleted', { tutorId: id, userId: id, at })] : []),
    ];
  };
  await spec.given(
    subject('calc', 'Calculus (University/College)', 'university', 'Math'),
    subject('func', 'Functions', 'grade_10_under', 'Math'),
    subject('bio', 'Biology (Grade 11-12)', 'grade_11_12', 'Science'),
    subject('old', 'Latin', 'grade_10_under', 'Languages'),
    event('subject-old', 'SubjectDeactivated', { subjectId: 'old', at }),
    ...tutor('ada', 'Ada', [
      ['calc', 'university'],
      ['func', 'grade_10_under'],
      ['old', 'university'],
    ]),
    ...tutor('ben', 'Ben', [['bio', 'grade_11_12']]),
    ...tutor('cy', 'Cy', [['func', 'grade_11_12']], false),
    ...tutor('dee', 'Dee', [['func', 'university']]),
    event('tutor-ada', 'TutorPictureChanged', {
      tutorId: 'ada',
      userId: 'ada',
      imagePath: `profile-pictures/ada/${hash}.png`,
      contentType: 'image/png',
      at,
    }),
    event('user-ada', 'NameChanged', { userId: 'ada', firstName: 'Adelaide', lastName: 'Lovelace', at }),
    event('user-dee', 'AccountDeleted', { userId: 'dee', at }),
  );
});
afterAll(() => db.drop());

const ids = async (filter: Parameters<typeof listDirectory>[1]) => (await listDirectory(db.sql, filter)).map((t) => t.id);

describe('tutor queries', () => {
  it('lists onboarded, live tutors with their current names, picture URL and active subjects', async () => {
    expect(await listDirectory(db.sql)).toEqual([
      {
        id: 'ada',
        user: { firstName: 'Adelaide', lastName: 'Lovelace', profileImage: '/api/tutors/ada/picture?v=c0ffeec0ffee' },
        rating: null,
        totalSessions: 0,
        bio: 'Ada teaches',
        subjects: [
          { id: 'func', name: 'Functions' },
          { id: 'calc', name: 'Calculus (University/College)' },
        ],
        experience: 5,
        reviewCount: 0,
      },
      expect.objectContaining({ id: 'ben', subjects: [{ id: 'bio', name: 'Biology (Grade 11-12)' }] }),
    ]);
  });

  it('filters by subject and by level (the tutor level for the subject ranks at or above the asked one)', async () => {
    expect(await ids({ subjectId: 'func' })).toEqual(['ada']);
    expect(await ids({ subjectId: 'func', gradeLevel: 'grade_11_12' })).toEqual([]);
    expect(await ids({ subjectId: 'calc', gradeLevel: 'university' })).toEqual(['ada']);
    expect(await ids({ subjectId: 'bio', gradeLevel: 'grade_10_under' })).toEqual(['ben']);
    expect(await ids({ gradeLevel: 'grade_11_12' })).toEqual(['ada', 'ben']);
    expect(await ids({ subjectId: 'old' })).toEqual([]);
    expect(await ids({ subjectId: 'nope' })).toEqual([]);
    expect(await ids({ tutorId: 'ben' })).toEqual(['ben']);
    expect(await ids({ tutorId: 'cy' })).toEqual([]);
    expect(await ids({ tutorId: 'dee' })).toEqual([]);
  });

  it("answers a tutor's own profile, subjects (inactive ones too, with names) and picture", async () => {
    expect(await findTutorProfile(db.sql, 'cy')).toEqual({
      id: 'cy',
      userId: 'cy',
      onboardingCompleted: false,
      bio: 'Cy teaches',
      experience: 5,
      profileImagePath: null,
      hourlyRate: 40,
    });
    expect(await findTutorProfile(db.sql, 'dee')).toBeNull();
    expect(await listTutorSubjects(db.sql, 'ada')).toEqual([
      { subjectId: 'old', name: 'Latin', maxGradeLevel: 'university' },
      { subjectId: 'func', name: 'Functions', maxGradeLevel: 'grade_10_under' },
      { subjectId: 'calc', name: 'Calculus (University/College)', maxGradeLevel: 'university' },
    ]);
    expect(await findTutorPicture(db.sql, 'ada')).toEqual({ key: `profile-pictures/ada/${hash}.png`, contentType: 'image/png' });
    expect(await findTutorPicture(db.sql, 'ben')).toBeNull();
  });
});
