import { Navigate, useLocation } from '@tanstack/react-router';
import { CircleAlert, RotateCw } from 'lucide-react';
import type * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { guardHomeOf } from './landing.ts';
import { PageSpinner } from './PageSpinner.tsx';
import { useTimezoneSync } from './timezoneSync.ts';
import type { User } from './types.ts';
import { useCurrentUser } from './useCurrentUser.ts';

/**
 * The route guard of spec part 1 §2, rules in order:
 * 1. while the current user loads, a spinner;
 * 2. no user → /login (staff areas: `signInPath`, their own sign-in page);
 * 3. no termsAcceptedAt → /accept-terms (except on /accept-terms itself);
 * 4. role not in `roles` → that role's home (admin /admin, tutor /tutor,
 *    student and student_secondary /student, anything else /).
 * `children` may be a function of the signed-in user.
 */
export function ProtectedRoute({
  roles,
  signInPath = '/login',
  children,
}: {
  roles?: readonly string[];
  /** Where a signed-out visitor goes: the console's staff sign in at /admin-login, not the student login. */
  signInPath?: '/login' | '/admin-login';
  children: React.ReactNode | ((user: User) => React.ReactNode);
}) {
  const { data: user, isPending, isError, refetch, isRefetching } = useCurrentUser();
  const pathname = useLocation({ select: (location) => location.pathname });
  useTimezoneSync(user);

  if (isPending) return <PageSpinner label="Loading your account..." />;

  if (isError) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16">
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>We could not check your sign-in</AlertTitle>
          <AlertDescription>
            <p>The server did not answer as expected. Check your connection and try again.</p>
            <Button variant="outline" size="sm" className="mt-3" disabled={isRefetching} onClick={() => void refetch()}>
              <RotateCw className={isRefetching ? 'animate-spin' : undefined} aria-hidden="true" />
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      </div>
    );
  }

  if (!user) return <Navigate to={signInPath} replace />;
  if (!user.termsAcceptedAt && pathname !== '/accept-terms') return <Navigate to="/accept-terms" replace />;
  if (roles && !roles.includes(user.role)) return <Navigate to={guardHomeOf(user.role)} replace />;

  return <>{typeof children === 'function' ? children(user) : children}</>;
}
