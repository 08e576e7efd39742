/** The address tutor applicants e-mail their resume, cover letter and transcript to (spec part 2 §1). */
export const TUTOR_APPLICATIONS_EMAIL = 'careers@topmark.ca';

/** A review's decision, as the tutor login page tells it to an applicant who signs in again. */
export interface ApplicationDecision {
  title: string;
  text: string;
  next: string;
}

/** The decision behind `/tutor-login?status=…` (null: no decision, e.g. a new application). */
export function applicationDecision(status: string | undefined): ApplicationDecision | null {
  switch (status) {
    case 'rejected':
      return {
        title: 'Your application was not accepted',
        text: 'Thank you for applying to tutor with Topmark. After review, we are unable to offer you a tutoring position at this time. We also sent you this decision by e-mail.',
        next: `Your application is closed and is not reviewed again. If you have a question about the decision, write to ${TUTOR_APPLICATIONS_EMAIL}.`,
      };
    case 'denied':
      return {
        title: 'Your application was declined',
        text: 'Thank you for your interest in tutoring with Topmark. Your application was declined and the personal data it held has been deleted.',
        next: `Your application is closed and is not reviewed again. If you have a question, write to ${TUTOR_APPLICATIONS_EMAIL}.`,
      };
    case 'invitation_revoked':
      return {
        title: 'This invitation has been withdrawn',
        text: 'The invitation to apply as a Topmark tutor sent to this address is no longer valid, so no application was submitted.',
        next: `If you think this is a mistake, write to ${TUTOR_APPLICATIONS_EMAIL}.`,
      };
    default:
      return null;
  }
}
