import { Loader2 } from 'lucide-react';
import type * as React from 'react';
import { cn } from '../lib/utils.ts';
import { Button } from './ui/button.tsx';

/* Small pieces every area uses (loading placeholders, pending buttons, initials); the tutor-only
   page guard lives with the tutors feature (features/tutors/TutorOnly.tsx). */

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
