/**
 * The product's pages (spec part 1, "Routes"), in the UI router's syntax (`$name` is one path
 * segment). The server answers any other path with HTTP 404 (still the app, which shows its
 * "404 Page Not Found"), so search engines and link checkers see a missing page as missing. The
 * UI's router is checked against this list (ui/src/app/pagePaths.test.ts).
 */
export const pagePaths = [
  '/',
  '/about',
  '/accept-terms',
  '/admin',
  '/admin-login',
  '/checkout',
  '/contact',
  '/dashboard',
  '/dev/mailbox',
  '/how-it-works',
  '/login',
  '/parent',
  '/pricing',
  '/role-selection',
  '/sandbox/checkout/$sessionId',
  '/student',
  '/student-dashboard',
  '/student-info/$studentId',
  '/subjects',
  '/time-slot-selection',
  '/tutor',
  '/tutor-applicant',
  '/tutor-dashboard',
  '/tutor-login',
  '/tutor-onboarding',
  '/tutor-selection',
  '/tutor-signup',
  '/tutors',
  '/verify-email',
] as const;

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patterns = pagePaths.map(
  (page) =>
    new RegExp(
      `^${page
        .split('/')
        .map((segment) => (segment.startsWith('$') ? '[^/]+' : literal(segment)))
        .join('/')}$`,
      'i',
    ),
);

/** Whether a request path (no query; one trailing slash allowed; any case, as the router's default) is one of the pages. */
export function isPagePath(pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return patterns.some((pattern) => pattern.test(path));
}
