import { describe, expect, it } from 'vitest';
import { applicationDecision, TUTOR_APPLICATIONS_EMAIL } from './tutorApplication.ts';

describe('the decision an applicant who signs in again is shown', () => {
  it('tells a rejection and a denial, and what to do next', () => {
    const rejected = applicationDecision('rejected');
    expect(rejected?.title).toBe('Your application was not accepted');
    expect(rejected?.text).toContain('unable to offer you a tutoring position');
    expect(rejected?.next).toContain(TUTOR_APPLICATIONS_EMAIL);
    const denied = applicationDecision('denied');
    expect(denied?.title).toBe('Your application was declined');
    expect(denied?.text).toContain('personal data it held has been deleted');
    expect(denied?.next).toContain(TUTOR_APPLICATIONS_EMAIL);
  });

  it('is no decision for a new application or anything else', () => {
    for (const status of [undefined, 'submitted', 'approved', 'x']) expect(applicationDecision(status)).toBeNull();
  });
});
