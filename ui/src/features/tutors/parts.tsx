import { Link, Navigate } from '@tanstack/react-router';
import { Loader2, ShieldAlert } from 'lucide-react';
import type * as React from 'react';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { cn } from '../../lib/utils.ts';

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

/** A grey placeholder block while something loads. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} />;
}

/** A loading line for screen readers and sighted users. */
export function Loading({ label }: { label: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
      <Loader2 className="size-4 animate-spin text-brand-700" aria-hidden="true" />
      {label}
    </p>
  );
}

/** A submit button that is disabled and relabelled while pending. */
export function PendingButton({
  pending,
  label,
  pendingLabel,
  ...props
}: React.ComponentProps<typeof Button> & { pending: boolean; label: React.ReactNode; pendingLabel: string }) {
  return (
    <Button {...props} disabled={pending || props.disabled}>
      {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
      {pending ? pendingLabel : label}
    </Button>
  );
}

/** "A L" initials of a name pair (the avatar fallback). */
export function initials(firstName: string, lastName: string): string {
  return `${firstName.trim()[0] ?? ''}${lastName.trim()[0] ?? ''}`.toUpperCase() || '?';
}
