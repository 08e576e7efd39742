import { boolean, int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/** Tutors' profiles (spec part 1 §3 `tutors`); the rate in cents (no decimal column type in the kit). */
export const tutors = table(
  'tutors',
  {
    id: text().primaryKey(),
    user_id: text(),
    application_id: text().nullable(),
    hourly_rate_cents: int().nullable(),
    is_active: boolean().default(true),
    onboarding_completed: boolean().default(false),
    created_at: timestamptz(),
  },
  { indexes: [{ name: 'tutors_user', on: ['user_id'], unique: true }] },
);
export type TutorRow = RowOf<typeof tutors>;

/**
 * Invitations (spec part 1 §3 `tutor_invitations`, without a token: the invitee signs in with
 * Google): sent, then accepted by the application that links it; a denial erases the address.
 */
export const tutorInvitations = table(
  'tutor_invitations',
  {
    id: text().primaryKey(),
    email: text(),
    invited_by: text().nullable(),
    status: text<'sent' | 'accepted'>().default('sent'),
    expires_at: timestamptz(),
    accepted_at: timestamptz().nullable(),
    created_at: timestamptz(),
  },
  { indexes: [{ name: 'tutor_invitations_email', on: ['lower(email)'] }] },
);
export type TutorInvitationRow = RowOf<typeof tutorInvitations>;
