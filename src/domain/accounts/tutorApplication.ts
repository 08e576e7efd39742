import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/** A tutor who signed in with Google and awaits review; `invitationId` when an admin had invited the address. */
export const tutorApplicationSubmitted = z.object({
  applicationId: z.string(),
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  googleId: z.string().nullable(),
  invitationId: z.string().nullable().default(null),
  /** The agreement the applicant accepted on /tutor-signup before going to Google (null: not recorded). */
  termsAcceptedVersion: z.string().nullable().default(null),
  termsAcceptedIp: z.string().nullable().default(null),
  at: z.string(),
});

/** An admin selected the applicant: the tutor approval workflow registers the tutor's account. */
export const tutorApplicationApproved = z.object({
  applicationId: z.string(),
  userId: z.string(),
  reviewedBy: z.string().nullable(),
  at: z.string(),
});

export const tutorApplicationRejected = z.object({
  applicationId: z.string(),
  userId: z.string(),
  reviewedBy: z.string().nullable(),
  at: z.string(),
});

/** Denied: the applicant's personal data is erased (their key `user-<userId>` is shredded). */
export const tutorApplicationDenied = z.object({
  applicationId: z.string(),
  userId: z.string(),
  invitationId: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  at: z.string(),
});

export const tutorApplicationEvents = {
  TutorApplicationSubmitted: eventType(tutorApplicationSubmitted, {
    personal: { fields: ['email', 'firstName', 'lastName', 'googleId', 'termsAcceptedIp'], subject: (d) => `user-${d.userId}` },
    describe: () => 'Tutor application submitted',
  }),
  TutorApplicationApproved: eventType(tutorApplicationApproved, { describe: () => 'Tutor application approved' }),
  TutorApplicationRejected: eventType(tutorApplicationRejected, { describe: () => 'Tutor application rejected' }),
  TutorApplicationDenied: eventType(tutorApplicationDenied, { describe: () => "Tutor application denied, the applicant's data erased" }),
};

export type TutorApplicationEvent = EventsOf<typeof tutorApplicationEvents>;
export type TutorApplicationStatus = 'none' | 'submitted' | 'approved' | 'rejected' | 'denied';
export interface TutorApplicationState {
  status: TutorApplicationStatus;
  applicationId: string | null;
  invitationId: string | null;
}
export const initialTutorApplicationState: TutorApplicationState = { status: 'none', applicationId: null, invitationId: null };
export const evolveTutorApplication = (state: TutorApplicationState, event: TutorApplicationEvent): TutorApplicationState => {
  switch (event.type) {
    case 'TutorApplicationSubmitted':
      return { status: 'submitted', applicationId: event.data.applicationId, invitationId: event.data.invitationId ?? null };
    case 'TutorApplicationApproved':
      return { ...state, status: 'approved' };
    case 'TutorApplicationRejected':
      return { ...state, status: 'rejected' };
    case 'TutorApplicationDenied':
      return { ...state, status: 'denied' };
  }
};

/** One stream per applicant (the applicant id derives from the Google subject). */
export const tutorApplicationStreamId = (applicantId: string) => `tutorApplication-${applicantId}`;
