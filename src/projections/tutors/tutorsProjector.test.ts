import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { tutorInvitations, tutorSubjects, tutors } from './tables.ts';
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
    termsAcceptedVersion: null,
    termsAcceptedIp: null,
    invitationId,
    at: '2026-11-24T12:00:00.000Z',
  });

const created = (id: string) =>
  event(`tutor-${id}`, 'TutorProfileCreated', {
    tutorId: id,
    userId: id,
    applicationId: `a-${id}`,
    hourlyRate: null,
    onboardingCompleted: false,
    at,
  });
const qualified = (id: string, ...qualifications: [string, GradeLevel][]) =>
  event(`tutor-${id}`, 'TutorQualificationsSet', {
    tutorId: id,
    userId: id,
    qualifications: qualifications.map(([subjectId, maxGradeLevel]) => ({ subjectId, maxGradeLevel })),
    at,
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
        bio: null,
        experience: null,
        profile_image_path: null,
        profile_image_type: null,
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

  it('counts the mails of an invitation sent again, closes a revoked one with its admin, and accepts one by its own event', async () => {
    const resent = (id: string, minute: number) =>
      event(`tutorInvitation-${id}`, 'TutorInvitationResent', {
        invitationId: id,
        resentBy: 'admin',
        at: `2026-11-23T12:0${minute}:00.000Z`,
      });
    await spec.given(invited('r1'), resent('r1', 2), resent('r1', 4), invited('r2'), invited('r3'));
    await spec.given(
      event('tutorInvitation-r2', 'TutorInvitationRevoked', { invitationId: 'r2', revokedBy: 'admin-2', at: '2026-11-23T13:00:00.000Z' }),
      event('tutorInvitation-r3', 'TutorInvitationAccepted', { invitationId: 'r3', applicationId: 'a', at: '2026-11-23T14:00:00.000Z' }),
    );
    expect(await spec.rows(tutorInvitations, { id: 'r1' })).toEqual([
      expect.objectContaining({
        status: 'sent',
        sent_count: 3,
        last_sent_at: new Date('2026-11-23T12:04:00.000Z'),
        stream_id: 'tutorInvitation-r1',
      }),
    ]);
    expect(await spec.rows(tutorInvitations, { id: 'r2' })).toEqual([
      expect.objectContaining({
        status: 'revoked',
        revoked_by: 'admin-2',
        revoked_at: new Date('2026-11-23T13:00:00.000Z'),
        sent_count: 1,
      }),
    ]);
    expect(await spec.rows(tutorInvitations, { id: 'r3' })).toEqual([
      expect.objectContaining({ status: 'accepted', accepted_at: new Date('2026-11-23T14:00:00.000Z') }),
    ]);
  });

  it('edits, a picture and onboarding fill the profile in; only the fields an edit names change', async () => {
    await spec.given(
      created('u4'),
      event('tutor-u4', 'TutorProfileEdited', { tutorId: 'u4', userId: 'u4', bio: 'I teach.', experience: 3, at }),
      event('tutor-u4', 'TutorProfileEdited', { tutorId: 'u4', userId: 'u4', experience: null, at }),
      event('tutor-u4', 'TutorPictureChanged', {
        tutorId: 'u4',
        userId: 'u4',
        imagePath: `profile-pictures/u4/${'a'.repeat(64)}.png`,
        contentType: 'image/png',
        at,
      }),
      event('tutor-u4', 'TutorOnboardingCompleted', { tutorId: 'u4', userId: 'u4', at }),
    );
    expect(await spec.rows(tutors, { id: 'u4' })).toEqual([
      expect.objectContaining({
        bio: 'I teach.',
        experience: null,
        profile_image_path: `profile-pictures/u4/${'a'.repeat(64)}.png`,
        profile_image_type: 'image/png',
        onboarding_completed: true,
        is_active: true,
      }),
    ]);
  });

  it('a saved set of subjects replaces the previous one', async () => {
    await spec.given(created('u5'), qualified('u5', ['s1', 'university'], ['s2', 'grade_10_under']));
    await spec.given(qualified('u5', ['s2', 'grade_11_12'], ['s3', 'grade_10_under']));
    expect((await spec.rows(tutorSubjects, { tutor_id: 'u5' })).map((r) => [r.subject_id, r.max_grade_level])).toEqual([
      ['s2', 'grade_11_12'],
      ['s3', 'grade_10_under'],
    ]);
  });

  it("an account deletion takes the tutor out: inactive, no bio, no picture, no subjects; other tutors' rows stay", async () => {
    await spec.given(
      created('u6'),
      event('tutor-u6', 'TutorProfileEdited', { tutorId: 'u6', userId: 'u6', bio: 'Mine', at }),
      qualified('u6', ['s1', 'grade_10_under']),
      created('u7'),
      qualified('u7', ['s1', 'grade_10_under']),
    );
    await spec.given(
      event('user-u6', 'AccountDeleted', { userId: 'u6', at }),
      event('user-nobody', 'AccountDeleted', { userId: 'nobody', at }),
    );
    expect(await spec.rows(tutors, { id: 'u6' })).toEqual([
      expect.objectContaining({ is_active: false, bio: null, profile_image_path: null, profile_image_type: null }),
    ]);
    expect(await spec.rows(tutorSubjects, { tutor_id: 'u6' })).toEqual([]);
    expect(await spec.rows(tutorSubjects, { tutor_id: 'u7' })).toHaveLength(1);
    expect(await spec.rows(tutors, { id: 'nobody' })).toEqual([]);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
