export type LandingPath = '/admin' | '/tutor' | '/parent' | '/student' | '/';

/** Where a signed-in user lands (spec part 1 §2 /login, §6). */
export function landingOf(role: string | null | undefined): LandingPath {
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

export type GuardHomePath = '/admin' | '/tutor' | '/student' | '/';

/**
 * Route guard rule 4 (spec part 1 §2): a user whose role a protected route does not allow goes to
 * that role's home: admin /admin, tutor /tutor, student and student_secondary /student, anything
 * else /.
 */
export function guardHomeOf(role: string): GuardHomePath {
  switch (role) {
    case 'admin':
      return '/admin';
    case 'tutor':
      return '/tutor';
    case 'student':
    case 'student_secondary':
      return '/student';
    default:
      return '/';
  }
}

/**
 * Where /accept-terms sends a user once terms are accepted (spec part 1 §2): tutor /tutor,
 * admin /admin, parent /parent, otherwise /student.
 */
export function termsLandingOf(role: string): '/admin' | '/tutor' | '/parent' | '/student' {
  const landing = landingOf(role);
  return landing === '/' ? '/student' : landing;
}
