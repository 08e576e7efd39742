import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { defineProjection, type ProjectedEvent } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { deleteRows, insertRows, updateRows } from '../kit/writes.ts';
import { type TutorInvitationRow, type TutorRow, type TutorSubjectRow, tutorInvitations, tutorSubjects, tutors } from './tables.ts';

const handles = [
  'TutorProfileCreated',
  'TutorProfileEdited',
  'TutorPictureChanged',
  'TutorQualificationsSet',
  'TutorOnboardingCompleted',
  'TutorInvited',
  'TutorInvitationResent',
  'TutorInvitationRevoked',
  'TutorInvitationAccepted',
  'TutorApplicationSubmitted',
  'TutorApplicationDenied',
  'AccountDeleted',
] as const;
type Handled = ProjectedEvent<(typeof handles)[number]>;
type ProfileEvent = Extract<
  Handled,
  { type: 'TutorProfileCreated' | 'TutorProfileEdited' | 'TutorPictureChanged' | 'TutorOnboardingCompleted' | 'AccountDeleted' }
>;

const isProfileEvent = (e: Handled): e is ProfileEvent =>
  e.type === 'TutorProfileCreated' ||
  e.type === 'TutorProfileEdited' ||
  e.type === 'TutorPictureChanged' ||
  e.type === 'TutorOnboardingCompleted' ||
  e.type === 'AccountDeleted';

/** The profile row after one event; a tutor's id is their user id, so an account deletion finds the row by it. */
function applyProfileEvent(row: TutorRow | null, e: ProfileEvent): TutorRow | null {
  if (e.type === 'TutorProfileCreated') {
    // A profile is created once: a repeated creation keeps the row.
    return (
      row ?? {
        id: e.data.tutorId,
        user_id: e.data.userId,
        application_id: e.data.applicationId,
        hourly_rate_cents: e.data.hourlyRate === null ? null : Math.round(e.data.hourlyRate * 100),
        is_active: true,
        onboarding_completed: e.data.onboardingCompleted,
        created_at: e.data.at,
        bio: null,
        experience: null,
        profile_image_path: null,
        profile_image_type: null,
      }
    );
  }
  if (!row) return null;
  switch (e.type) {
    case 'TutorProfileEdited':
      return {
        ...row,
        bio: e.data.bio === undefined ? row.bio : e.data.bio,
        experience: e.data.experience === undefined ? row.experience : e.data.experience,
      };
    case 'TutorPictureChanged':
      // A shredded key leaves the path erased: no picture to serve.
      return e.data.imagePath === ERASED ? row : { ...row, profile_image_path: e.data.imagePath, profile_image_type: e.data.contentType };
    case 'TutorOnboardingCompleted':
      return { ...row, onboarding_completed: true };
    case 'AccountDeleted':
      // The account is gone: the tutor leaves the directory, and their own words and picture with it.
      return { ...row, is_active: false, bio: null, profile_image_path: null, profile_image_type: null };
  }
}

const profileKey = (e: ProfileEvent) => (e.type === 'AccountDeleted' ? e.data.userId : e.data.tutorId);

/**
 * Tutor profiles, what they teach, and invitations: an application linked to an invitation
 * accepts it (older logs say so only on the application); a resend counts a mail; a revocation
 * closes it; a denial erases its address; an account deletion deactivates the profile.
 */
export const tutorsProjector = defineProjection({
  name: 'tutors',
  handles,
  tables: [tutors, tutorSubjects, tutorInvitations],
  async apply(tx, events) {
    const invitations: TutorInvitationRow[] = [];
    const accepted: Pick<TutorInvitationRow, 'id' | 'status' | 'accepted_at'>[] = [];
    const erased: Pick<TutorInvitationRow, 'id' | 'email'>[] = [];
    const revoked: Pick<TutorInvitationRow, 'id' | 'status' | 'revoked_at' | 'revoked_by'>[] = [];
    /** Per invitation, the mails sent again in the batch and when the last one was. */
    const resent = new Map<string, { count: number; at: string }>();
    /** Each tutor's latest saved set in the batch (null: none any more). */
    const subjects = new Map<string, TutorSubjectRow[]>();
    for (const e of events) {
      switch (e.type) {
        case 'TutorQualificationsSet':
          subjects.set(
            e.data.tutorId,
            e.data.qualifications.map((q) => ({
              id: `${e.data.tutorId}/${q.subjectId}`,
              tutor_id: e.data.tutorId,
              subject_id: q.subjectId,
              max_grade_level: q.maxGradeLevel,
              created_at: e.data.at,
            })),
          );
          break;
        case 'AccountDeleted':
          subjects.set(e.data.userId, []);
          break;
        case 'TutorInvited':
          invitations.push({
            id: e.data.invitationId,
            email: e.data.email,
            invited_by: e.data.invitedBy,
            status: 'sent',
            expires_at: e.data.expiresAt,
            accepted_at: null,
            created_at: e.data.at,
            stream_id: e.streamId,
            last_sent_at: e.data.at,
            sent_count: 1,
            revoked_at: null,
            revoked_by: null,
          });
          break;
        case 'TutorInvitationResent': {
          const before = resent.get(e.data.invitationId);
          resent.set(e.data.invitationId, { count: (before?.count ?? 0) + 1, at: e.data.at });
          break;
        }
        case 'TutorInvitationRevoked':
          revoked.push({ id: e.data.invitationId, status: 'revoked', revoked_at: e.data.at, revoked_by: e.data.revokedBy });
          break;
        case 'TutorInvitationAccepted':
          accepted.push({ id: e.data.invitationId, status: 'accepted', accepted_at: e.data.at });
          break;
        case 'TutorApplicationSubmitted':
          if (e.data.invitationId) accepted.push({ id: e.data.invitationId, status: 'accepted', accepted_at: e.data.at });
          break;
        case 'TutorApplicationDenied':
          if (e.data.invitationId) erased.push({ id: e.data.invitationId, email: ERASED });
          break;
        default:
          break;
      }
    }
    await foldRows(tx, tutors, events.filter(isProfileEvent), {
      keyOf: profileKey,
      apply: applyProfileEvent,
    });
    await deleteRows(tx, tutorSubjects, 'tutor_id', [...subjects.keys()]);
    await insertRows(tx, tutorSubjects, [...subjects.values()].flat(), 'update');
    await insertRows(tx, tutorInvitations, invitations, 'nothing');
    await updateRows(tx, tutorInvitations, ['status', 'accepted_at'], accepted);
    await updateRows(tx, tutorInvitations, ['email'], erased);
    await updateRows(tx, tutorInvitations, ['status', 'revoked_at', 'revoked_by'], revoked);
    if (resent.size > 0) {
      const ids = [...resent.keys()];
      await tx`
        UPDATE tutor_invitations t SET sent_count = COALESCE(t.sent_count, 1) + x.n, last_sent_at = x.at
        FROM unnest(${ids}::text[], ${ids.map((id) => resent.get(id)?.count ?? 0)}::int[], ${ids.map((id) => resent.get(id)?.at ?? '')}::timestamptz[]) AS x(id, n, at)
        WHERE t.id = x.id`;
    }
  },
});
