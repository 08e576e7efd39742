/** The address tutor applicants e-mail their resume, cover letter and transcript to (spec part 2 §1). */
export const TUTOR_APPLICATIONS_EMAIL = 'careers@topmark.ca';

/** Full-page navigation that starts Google sign-in for a tutor (spec part 1 §7). */
export const TUTOR_GOOGLE_SIGN_IN_URL = '/api/auth/google?userType=tutor';
