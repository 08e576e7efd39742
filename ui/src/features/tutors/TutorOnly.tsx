import { Link, Navigate } from '@tanstack/react-router';
import { ShieldAlert } from 'lucide-react';
import type * as React from 'react';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';

/**
 * A tutor-only page (spec part 2 §2): signed-out visitors go to /login (the route guard); any
 * other role sees "Access Denied" rather than being sent elsewhere.
 */
export function TutorOnly({
  children,
  signInPath,
}: {
  children: (user: User) => React.ReactNode;
  /** Where a signed-out visitor goes instead of /login (onboarding: /tutor-login, spec part 2 §2). */
  signInPath?: '/tutor-login';
}) {
  const { data: user } = useCurrentUser();
  if (signInPath && user === null) return <Navigate to={signInPath} replace />;
  return <ProtectedRoute>{(u) => (u.role === 'tutor' ? children(u) : <AccessDenied />)}</ProtectedRoute>;
}

function AccessDenied() {
  return (
    <main id="main" className="mx-auto flex min-h-dvh max-w-lg flex-col justify-center px-4 py-16">
      <Card>
        <CardContent className="flex flex-col items-center gap-3 text-center">
          <ShieldAlert className="size-10 text-destructive-text" aria-hidden="true" />
          <h1 className="text-2xl font-bold text-slate-900">Access Denied</h1>
          <p className="text-slate-600">This page is only accessible to tutors.</p>
          <Link to="/" className={buttonVariants({ variant: 'outline' })}>
            Go to the home page
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}
