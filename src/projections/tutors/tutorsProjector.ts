import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { defineProjection } from '../kit/defineProjection.ts';
import { insertRows, updateRows } from '../kit/writes.ts';
import { type TutorInvitationRow, type TutorRow, tutorInvitations, tutors } from './tables.ts';

/** Tutor profiles and invitations: an application linked to an invitation accepts it; a denial erases its address. */
export const tutorsProjector = defineProjection({
  name: 'tutors',
  handles: ['TutorProfileCreated', 'TutorInvited', 'TutorApplicationSubmitted', 'TutorApplicationDenied'],
  tables: [tutors, tutorInvitations],
  async apply(tx, events) {
    const profiles: TutorRow[] = [];
    const invitations: TutorInvitationRow[] = [];
    const accepted: Pick<TutorInvitationRow, 'id' | 'status' | 'accepted_at'>[] = [];
    const erased: Pick<TutorInvitationRow, 'id' | 'email'>[] = [];
    for (const e of events) {
      switch (e.type) {
        case 'TutorProfileCreated':
          profiles.push({
            id: e.data.tutorId,
            user_id: e.data.userId,
            application_id: e.data.applicationId,
            hourly_rate_cents: e.data.hourlyRate === null ? null : Math.round(e.data.hourlyRate * 100),
            is_active: true,
            onboarding_completed: e.data.onboardingCompleted,
            created_at: e.data.at,
          });
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
          });
          break;
        case 'TutorApplicationSubmitted':
          if (e.data.invitationId) accepted.push({ id: e.data.invitationId, status: 'accepted', accepted_at: e.data.at });
          break;
        case 'TutorApplicationDenied':
          if (e.data.invitationId) erased.push({ id: e.data.invitationId, email: ERASED });
          break;
      }
    }
    await insertRows(tx, tutors, profiles, 'nothing');
    await insertRows(tx, tutorInvitations, invitations, 'nothing');
    await updateRows(tx, tutorInvitations, ['status', 'accepted_at'], accepted);
    await updateRows(tx, tutorInvitations, ['email'], erased);
  },
});
