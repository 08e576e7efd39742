import { CURRENT_TERMS_VERSION } from '@shared/accounts/accountForms.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from '@tanstack/react-router';
import { CheckCircle2, FileText, Loader2 } from 'lucide-react';
import type * as React from 'react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { LogoutButton } from '../../app/auth/LogoutButton.tsx';
import { termsLandingOf } from '../../app/auth/landing.ts';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { currentUserKey } from '../../app/auth/useCurrentUser.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { checkboxClasses } from '../../components/FieldMessage.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { accountsApi } from './api.ts';
import { StudentParentAgreement } from './StudentParentAgreement.tsx';

/** Spec part 1 §9: the pause between "Terms Accepted" and the redirect. */
export const TERMS_REDIRECT_MS = 1500;

const LEAVE_WARNING = 'You must accept the terms and conditions to continue.';

/**
 * /accept-terms (spec part 1 §2): anonymous → /login (by the guard); already accepted → landing by
 * role; otherwise the agreement, a required checkbox and Accept and Continue.
 */
export function AcceptTermsPage() {
  useDocumentTitle('Accept Terms');
  return <ProtectedRoute>{(user) => <AcceptTermsGate user={user} />}</ProtectedRoute>;
}

function AcceptTermsGate({ user }: { user: User }) {
  // Accepted in this visit: stay on the page for the 1.5 s confirmation, the form redirects.
  const [acceptedNow, setAcceptedNow] = useState(false);
  if (user.termsAcceptedAt && !acceptedNow) return <Navigate to={termsLandingOf(user.role)} replace />;
  return <AcceptTermsForm user={user} onAccepted={() => setAcceptedNow(true)} />;
}

function AcceptTermsForm({ user, onAccepted }: { user: User; onAccepted: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [checked, setChecked] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Leaving the page while the terms are not accepted triggers the browser's warning.
  useEffect(() => {
    if (accepted) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Legacy browsers show (or need) returnValue; modern ones show their own text.
      event.returnValue = LEAVE_WARNING;
      return LEAVE_WARNING;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [accepted]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const accept = useMutation({
    mutationFn: async () => {
      const body = await accountsApi.acceptTerms({ termsAcceptedVersion: CURRENT_TERMS_VERSION });
      if (!body.ok) throw new Error('Failed to accept terms. Please try again.');
      return body.termsAcceptedAt ?? new Date().toISOString();
    },
    onSuccess: (termsAcceptedAt) => {
      setAccepted(true);
      onAccepted();
      toast({ title: 'Terms Accepted', description: 'Thank you. Taking you to your dashboard...', variant: 'success' });
      timer.current = setTimeout(() => {
        queryClient.setQueryData<User | null>(currentUserKey, (current) =>
          current ? { ...current, termsAcceptedAt, termsAcceptedVersion: CURRENT_TERMS_VERSION } : current,
        );
        void navigate({ to: termsLandingOf(user.role), replace: true });
      }, TERMS_REDIRECT_MS);
    },
    onError: (error) => {
      const message = /^\d{3}: /.test(error.message)
        ? errorMessage(error, 'Failed to accept terms. Please try again.')
        : error.message || 'Failed to accept terms. Please try again.';
      toast({ title: 'Error', description: message, variant: 'destructive' });
    },
  });

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checked) {
      toast({ title: 'Terms Required', description: 'You must accept the terms and conditions to continue', variant: 'destructive' });
      return;
    }
    accept.mutate();
  };

  const firstName = user.firstName?.trim();

  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-10 sm:py-14">
      <div className="mx-auto max-w-3xl">
        <div className="text-center">
          <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-white text-brand-700 shadow-sm ring-1 ring-border">
            <FileText className="size-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {firstName ? `Welcome, ${firstName}!` : 'Welcome!'}
          </h1>
          <p className="mt-3 text-base text-slate-600">
            Before you continue, please read and accept the Student/Parent Agreement. You only need to do this once.
          </p>
        </div>

        <Card className="mt-8">
          <CardHeader>
            <CardTitle as="h2">Student/Parent Agreement</CardTitle>
          </CardHeader>
          <CardContent>
            <section
              // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrollable agreement must be reachable by keyboard
              tabIndex={0}
              className="max-h-[26rem] overflow-y-auto rounded-lg border border-border bg-slate-50 p-4 sm:p-6"
              aria-label="Agreement text"
            >
              <StudentParentAgreement headingLevel="h3" />
            </section>
          </CardContent>
          <CardFooter className="flex-col items-stretch gap-5">
            <form onSubmit={onSubmit} className="space-y-5">
              <div className="flex items-start gap-3">
                <input
                  id="accept-terms-checkbox"
                  type="checkbox"
                  required
                  aria-required="true"
                  className={checkboxClasses}
                  checked={checked}
                  onChange={(event) => setChecked(event.target.checked)}
                  disabled={accepted}
                />
                <label htmlFor="accept-terms-checkbox" className="text-sm leading-snug font-medium text-slate-900">
                  I have read and accept the terms and conditions of the Student/Parent Agreement (version {CURRENT_TERMS_VERSION}).
                </label>
              </div>
              <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={!checked || accept.isPending || accepted}>
                {accept.isPending ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : accepted ? (
                  <CheckCircle2 aria-hidden="true" />
                ) : null}
                {accept.isPending ? 'Accepting...' : 'Accept and Continue'}
              </Button>
            </form>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 border-t border-border pt-4 text-sm text-slate-600">
              <span>
                Signed in as <span className="font-medium text-slate-900">{user.email || user.username}</span>.
              </span>
              <LogoutButton variant="link" size="sm" className="h-auto px-0" />
            </p>
          </CardFooter>
        </Card>
      </div>
    </section>
  );
}
