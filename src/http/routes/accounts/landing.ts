/**
 * Where the browser goes after a Google sign-in: the role's landing page (spec part 1 §2, §6). An
 * approved tutor whose onboarding is not complete lands on /tutor-onboarding (spec part 2 §2
 * "Application Process": onboarding at next login, then the dashboard).
 */
export function landingOf(
  role: string | null | undefined,
  tutor: { onboardingPending: boolean } = { onboardingPending: false },
): '/admin' | '/tutor' | '/tutor-onboarding' | '/parent' | '/student' | '/' {
  switch (role) {
    case 'admin':
      return '/admin';
    case 'tutor':
      return tutor.onboardingPending ? '/tutor-onboarding' : '/tutor';
    case 'parent':
      return '/parent';
    case 'student':
    case 'student_secondary':
      return '/student';
    default:
      return '/';
  }
}

/** A tutor applicant has no account yet: the tutor login page says the application was received. */
export const TUTOR_APPLICATION_SUBMITTED = '/tutor-login?status=submitted';

/** An applicant signing in again after the review: the tutor login page tells the decision instead. */
export const tutorApplicationLanding = (application: 'submitted' | 'rejected' | 'denied' | undefined): string =>
  application === 'rejected' || application === 'denied' ? `/tutor-login?status=${application}` : TUTOR_APPLICATION_SUBMITTED;
