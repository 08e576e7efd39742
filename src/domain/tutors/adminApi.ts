import { z } from 'zod';

/**
 * The admin side of tutor recruiting (spec part 2 §3 and §7), shared by the server and the UI
 * (`@shared/tutors/adminApi.ts`): the UI reads every admin answer through these schemas.
 */

/** An admin-listed user: a tutor application as GET /api/admin/tutor-applications and /api/admin/tutors/pending list it. */
export const adminListedUserSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string(),
  /** tutor, admin, parent or student. */
  role: z.string(),
  /** pending or approved; anything else shows a destructive badge. */
  status: z.string(),
  googleId: z.string().nullable(),
  /** google or local. */
  authProvider: z.string(),
  /** ISO timestamp of the application. */
  createdAt: z.string(),
});
export type AdminListedUser = z.output<typeof adminListedUserSchema>;
export const adminListedUsersSchema = z.array(adminListedUserSchema);

/** GET /api/admin/overview. */
export const adminOverviewSchema = z.object({
  totalUsers: z.number(),
  totalStudents: z.number(),
  totalTutors: z.number(),
  pendingApprovals: z.number(),
});
export type AdminOverview = z.output<typeof adminOverviewSchema>;

/** POST /api/admin/tutors/invite (201). */
export const tutorInvitationAnswerSchema = z.object({ ok: z.literal(true), invitationId: z.string(), expiresAt: z.string().nullable() });

/** The answer of approve, reject and deny: the application's new status. */
export const applicationReviewAnswerSchema = z.object({ ok: z.literal(true), status: z.string() });

/** An invitation as the console lists it: `expired` is an outstanding one past its date (no event: time passed). */
export const tutorInvitationStatusSchema = z.enum(['outstanding', 'accepted', 'revoked', 'expired']);
export type TutorInvitationListStatus = z.output<typeof tutorInvitationStatusSchema>;

/** GET /api/admin/tutors/invitations: one line per invitation, newest first. */
export const tutorInvitationListEntrySchema = z.object({
  id: z.string(),
  /** "[erased]" once a denial shredded the address. */
  email: z.string(),
  status: tutorInvitationStatusSchema,
  invitedAt: z.string(),
  expiresAt: z.string(),
  /** When the invitation was last mailed (the first send or the latest resend). */
  lastSentAt: z.string(),
  /** How many mails it took: 1, plus one per resend. */
  sentCount: z.number(),
  /** The admin who invited, by name (null: unknown, e.g. the CLI). */
  invitedByName: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type TutorInvitationListEntry = z.output<typeof tutorInvitationListEntrySchema>;
export const tutorInvitationListSchema = z.array(tutorInvitationListEntrySchema);

/** POST /api/admin/tutors/invitations/{id}/resend and …/revoke (200). */
export const tutorInvitationActionAnswerSchema = z.object({ ok: z.literal(true), invitationId: z.string() });
