import { Navigate } from '@tanstack/react-router';
import type * as React from 'react';
import { landingOf } from '../../app/auth/landing.ts';
import { PageSpinner } from '../../app/auth/PageSpinner.tsx';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';

/**
 * Shows its children to anonymous visitors; a signed-in user is redirected by role (spec part 1
 * §2: /login and /tutor-login). If the user check fails, the page is shown (it still works).
 */
export function SignedOutOnly({ children }: { children: React.ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageSpinner />;
  if (user) return <Navigate to={landingOf(user.role)} replace />;
  return <>{children}</>;
}
