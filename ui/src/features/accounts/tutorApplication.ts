/** The address tutor applicants e-mail their resume, cover letter and transcript to (spec part 2 §1). */
export const TUTOR_APPLICATIONS_EMAIL = 'careers@topmark.ca';
