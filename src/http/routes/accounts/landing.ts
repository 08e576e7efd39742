/** Where the browser goes after a Google sign-in: the role's landing page (spec part 1 §2, §6). */
export function landingOf(role: string | null | undefined): '/admin' | '/tutor' | '/parent' | '/student' | '/' {
  switch (role) {
    case 'admin':
      return '/admin';
    case 'tutor':
      return '/tutor';
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
