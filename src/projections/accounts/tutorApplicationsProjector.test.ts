import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { pendingTutorApplications } from './tables.ts';
import { tutorApplicationsProjector } from './tutorApplicationsProjector.ts';

const submitted = (userId: string, applicationId = `app-${userId}`) =>
  event(`tutorApplication-${userId}`, 'TutorApplicationSubmitted', {
    applicationId,
    userId,
    email: `${userId}@example.com`,
    firstName: 'Tia',
    lastName: 'Moss',
    googleId: `g-${userId}`,
    termsAcceptedVersion: null,
    termsAcceptedIp: null,
    invitationId: null,
    at: '2025-04-01T00:00:00.000Z',
  });
const reviewed = (type: 'TutorApplicationApproved' | 'TutorApplicationRejected', userId: string) =>
  event(`tutorApplication-${userId}`, type, {
    applicationId: `app-${userId}`,
    userId,
    reviewedBy: 'admin',
    at: '2025-04-03T00:00:00.000Z',
  });
const denied = (userId: string) =>
  event(`tutorApplication-${userId}`, 'TutorApplicationDenied', {
    applicationId: `app-${userId}`,
    userId,
    invitationId: null,
    reviewedBy: 'admin',
    at: '2025-04-03T00:00:00.000Z',
  });
const deleted = (userId: string) => event(`user-${userId}`, 'AccountDeleted', { userId, at: '2025-04-02T00:00:00.000Z' });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('pending tutor applications, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('tutors');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [tutorApplicationsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a submitted application awaits review', async () => {
    await spec.given(submitted('t1'));
    expect(await spec.rows(pendingTutorApplications, { user_id: 't1' })).toEqual([
      {
        id: 'app-t1',
        user_id: 't1',
        email: 't1@example.com',
        first_name: 'Tia',
        last_name: 'Moss',
        google_id: 'g-t1',
        invitation_id: null,
        status: 'pending',
        applied_at: new Date('2025-04-01T00:00:00.000Z'),
        reviewed_at: null,
        reviewed_by: null,
      },
    ]);
  });

  it("the applicant's deletion removes it, in a later batch or the same one", async () => {
    await spec.given(submitted('t2'));
    await spec.given(deleted('t2'), submitted('t3'), deleted('t3'));
    expect(await spec.rows(pendingTutorApplications, { user_id: 't2' })).toEqual([]);
    expect(await spec.rows(pendingTutorApplications, { user_id: 't3' })).toEqual([]);
  });

  it("another user's deletion leaves it, and a resubmission keeps the first", async () => {
    await spec.given(submitted('t4'), deleted('someone-else'), submitted('t4'));
    expect(await spec.rows(pendingTutorApplications, { user_id: 't4' })).toHaveLength(1);
  });

  it('reviews set the status and reviewer, in a later batch or the same one; a denial erases the name and address', async () => {
    await spec.given(submitted('t5'));
    await spec.given(reviewed('TutorApplicationApproved', 't5'), submitted('t6'), reviewed('TutorApplicationRejected', 't6'));
    await spec.given(submitted('t7'), denied('t7'));
    const review = { reviewed_at: new Date('2025-04-03T00:00:00.000Z'), reviewed_by: 'admin' };
    expect(await spec.rows(pendingTutorApplications, { user_id: 't5' })).toEqual([
      expect.objectContaining({ status: 'approved', email: 't5@example.com', ...review }),
    ]);
    expect(await spec.rows(pendingTutorApplications, { user_id: 't6' })).toEqual([
      expect.objectContaining({ status: 'rejected', ...review }),
    ]);
    expect(await spec.rows(pendingTutorApplications, { user_id: 't7' })).toEqual([
      expect.objectContaining({ status: 'denied', email: '[erased]', first_name: '[erased]', last_name: '[erased]', google_id: null }),
    ]);
  });

  it("the approved tutor's profile erases the application's copy of their data", async () => {
    await spec.given(
      submitted('t8'),
      reviewed('TutorApplicationApproved', 't8'),
      event('tutor-x8', 'TutorProfileCreated', {
        tutorId: 'x8',
        userId: 'x8',
        applicationId: 'app-t8',
        hourlyRate: null,
        onboardingCompleted: false,
        at: '2025-04-03T00:00:00.000Z',
      }),
    );
    expect(await spec.rows(pendingTutorApplications, { user_id: 't8' })).toEqual([
      expect.objectContaining({ status: 'approved', email: '[erased]', first_name: '[erased]', last_name: '[erased]', google_id: null }),
    ]);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
