import {
  adminListedUsersSchema,
  adminOverviewSchema,
  applicationReviewAnswerSchema,
  tutorInvitationActionAnswerSchema,
  tutorInvitationAnswerSchema,
  tutorInvitationListSchema,
} from '@shared/tutors/adminApi.ts';
import type { QueryClient } from '@tanstack/react-query';
import { api, jsonQuery } from '../../app/api.ts';
import { usersConsoleApi } from '../accounts/consoleApi.ts';

const id = (value: string) => encodeURIComponent(value);

/**
 * The console's tutor recruiting calls (spec part 2 §3 and §7): the Tutor Applications and Create
 * Tutor tabs, and the Overview's counters (the server's tutors feature answers them all); answers
 * read through `@shared/tutors/adminApi.ts`.
 */
export const tutorsConsoleApi = {
  /** The Overview's counters: accounts by role and applications awaiting review. */
  overviewKey: ['/api/admin/overview'] as const,
  overview: jsonQuery('/api/admin/overview', adminOverviewSchema),

  /** The Tutor Applications tab's list (its length is the tab's badge). */
  applicationsKey: ['/api/admin/tutor-applications'] as const,
  applications: jsonQuery('/api/admin/tutor-applications', adminListedUsersSchema),

  /** The Create Tutor tab's list of pending applications. */
  pendingTutorsKey: ['/api/admin/tutors/pending'] as const,
  pendingTutors: jsonQuery('/api/admin/tutors/pending', adminListedUsersSchema),

  invite: (email: string) => api.send('POST', '/api/admin/tutors/invite', { email }, tutorInvitationAnswerSchema),
  /** Create Tutor tab: the invitations sent, with their mails (the outstanding ones are listed beside the form). */
  invitationsKey: ['/api/admin/tutors/invitations'] as const,
  invitations: jsonQuery('/api/admin/tutors/invitations', tutorInvitationListSchema),
  resendInvitation: (invitationId: string) =>
    api.send('POST', `/api/admin/tutors/invitations/${id(invitationId)}/resend`, undefined, tutorInvitationActionAnswerSchema),
  revokeInvitation: (invitationId: string) =>
    api.send('POST', `/api/admin/tutors/invitations/${id(invitationId)}/revoke`, undefined, tutorInvitationActionAnswerSchema),
  /** Tutor Applications tab: approve. */
  approveApplication: (applicantId: string) =>
    api.send('POST', `/api/admin/approve-tutor/${id(applicantId)}`, undefined, applicationReviewAnswerSchema),
  /** Tutor Applications tab: deny (the applicant's record is erased). */
  denyApplication: (applicantId: string) =>
    api.send('DELETE', `/api/admin/deny-tutor-application/${id(applicantId)}`, undefined, applicationReviewAnswerSchema),
  /** Create Tutor tab: approve. */
  approveTutor: (applicantId: string) =>
    api.send('POST', `/api/admin/tutors/${id(applicantId)}/approve`, undefined, applicationReviewAnswerSchema),
  /** Create Tutor tab: reject. */
  rejectTutor: (applicantId: string) =>
    api.send('POST', `/api/admin/tutors/${id(applicantId)}/reject`, undefined, applicationReviewAnswerSchema),
};

/** After a review: every list and counter an application appears in (the Users tab's too). */
export function refreshAfterReview(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [tutorsConsoleApi.applicationsKey, tutorsConsoleApi.pendingTutorsKey, tutorsConsoleApi.overviewKey, usersConsoleApi.allKey].map(
      (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
