import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { tutorInvitations, tutors } from './tables.ts';
import { tutorsProjector } from './tutorsProjector.ts';

const at = '2026-11-23T12:00:00.000Z';
const invited = (id: string) =>
  event(`tutorInvitation-${id}`, 'TutorInvited', {
    invitationId: id,
    email: `${id}@example.com`,
    invitedBy: 'admin',
    signInUrl: 'https://topmark.test/tutor-login',
    expiresAt: '2026-12-07T12:00:00.000Z',
    at,
  });
const applied = (userId: string, invitationId: string | null) =>
  event(`tutorApplication-${userId}`, 'TutorApplicationSubmitted', {
    applicationId: `app-${userId}`,
    userId,
    email: 'x@example.com',
    firstName: 'X',
    lastName: 'Y',
    googleId: null,
    invitationId,
    at: '2026-11-24T12:00:00.000Z',
  });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('tutors and invitations, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('tutorprofiles');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [tutorsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a created profile has no rate and onboarding to do', async () => {
    await spec.given(
      event('tutor-u1', 'TutorProfileCreated', {
        tutorId: 'u1',
        userId: 'u1',
        applicationId: 'a1',
        hourlyRate: null,
        onboardingCompleted: false,
        at,
      }),
    );
    expect(await spec.rows(tutors, { id: 'u1' })).toEqual([
      {
        id: 'u1',
        user_id: 'u1',
        application_id: 'a1',
        hourly_rate_cents: null,
        is_active: true,
        onboarding_completed: false,
        created_at: new Date(at),
      },
    ]);
  });

  it('an invitation is sent, accepted by the application that links it, and its address erased by a denial', async () => {
    await spec.given(invited('i1'), invited('i2'));
    await spec.given(applied('u2', 'i1'), applied('u3', null));
    await spec.given(
      event('tutorApplication-u2', 'TutorApplicationDenied', {
        applicationId: 'app-u2',
        userId: 'u2',
        invitationId: 'i1',
        reviewedBy: 'admin',
        at,
      }),
    );
    expect(await spec.rows(tutorInvitations, { id: 'i1' })).toEqual([
      expect.objectContaining({ email: '[erased]', status: 'accepted', accepted_at: new Date('2026-11-24T12:00:00.000Z') }),
    ]);
    expect(await spec.rows(tutorInvitations, { id: 'i2' })).toEqual([expect.objectContaining({ email: 'i2@example.com', status: 'sent' })]);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
