import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { CheckCircle2, CircleAlert, Loader2, MailCheck, RotateCw } from 'lucide-react';
import type * as React from 'react';
import { useEffect, useState } from 'react';
import { verificationErrorText } from '../../app/auth/apiErrors.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Alert, AlertDescription } from '../../components/ui/alert.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { accountsApi } from './api.ts';
import { DevMailboxLink } from './devMailbox.tsx';
import { sixDigits } from './ForgotPassword.tsx';

/** Spec part 1 §9: the redirect to /login after a successful verification. */
export const VERIFIED_REDIRECT_MS = 2000;

export const VERIFY_MESSAGES = {
  verified: 'Email verified successfully! You can now log in to your account.',
  verifyFailed: 'Verification failed. Please try again.',
  verifyNetwork: 'Network error. Please check your connection and try again.',
  invalidCode: 'Please enter a valid 6-digit code',
  resent: 'New verification code sent! Please check your email.',
  resendFailed: 'Failed to resend verification code.',
  resendNetwork: 'Network error. Please try again.',
  resendNeedsEmail: 'Email address is required to resend verification code.',
} as const;

type Outcome = { tone: 'success' | 'error'; text: string } | null;

const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+$/.test(value);

/**
 * /verify-email?email=… (spec part 1 §2, §4, §5, §8): a 6-digit code, Verify Email (disabled until
 * 6 digits), Resend Verification Code, Back to Login; after success, /login in 2 seconds. When the
 * query has no e-mail address (e.g. the sign-in used a username) the page asks for it.
 */
export function VerifyEmailPage({ email: emailParam = '' }: { email?: string | undefined }) {
  useDocumentTitle('Verify Email');
  const navigate = useNavigate();
  const askForEmail = !looksLikeEmail(emailParam);
  const [email, setEmail] = useState(askForEmail ? '' : emailParam);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [verified, setVerified] = useState(false);

  useEffect(() => {
    if (!verified) return;
    const timer = setTimeout(() => void navigate({ to: '/login' }), VERIFIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [verified, navigate]);

  const verify = useMutation({
    mutationFn: async () => {
      await accountsApi.verifyEmail(email.trim(), code);
    },
    onSuccess: () => {
      setVerified(true);
      setOutcome({ tone: 'success', text: VERIFY_MESSAGES.verified });
    },
    onError: (error) => {
      setOutcome({ tone: 'error', text: verificationErrorText(error, VERIFY_MESSAGES.verifyFailed, VERIFY_MESSAGES.verifyNetwork) });
    },
  });

  const resend = useMutation({
    mutationFn: async () => {
      await accountsApi.resendVerification(email.trim());
    },
    onSuccess: () => setOutcome({ tone: 'success', text: VERIFY_MESSAGES.resent }),
    onError: (error) => {
      setOutcome({ tone: 'error', text: verificationErrorText(error, VERIFY_MESSAGES.resendFailed, VERIFY_MESSAGES.resendNetwork) });
    },
  });

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setOutcome({ tone: 'error', text: VERIFY_MESSAGES.invalidCode });
      return;
    }
    setOutcome(null);
    verify.mutate();
  };

  const onResend = () => {
    if (!email.trim()) {
      setOutcome({ tone: 'error', text: VERIFY_MESSAGES.resendNeedsEmail });
      return;
    }
    setOutcome(null);
    resend.mutate();
  };

  const busy = verify.isPending || resend.isPending || verified;

  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-12 sm:py-16">
      <div className="mx-auto max-w-md">
        <div className="text-center">
          <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-white text-brand-700 shadow-sm ring-1 ring-border">
            <MailCheck className="size-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Verify your email</h1>
          <p className="mt-3 text-base text-slate-600">
            {askForEmail ? (
              'Enter your email address and the 6-digit code we sent to it.'
            ) : (
              <>
                We sent a 6-digit code to <span className="font-medium break-all text-slate-900">{email}</span>. Enter it below to activate
                your account.
              </>
            )}
          </p>
        </div>

        <Card className="mt-8">
          <CardContent className="space-y-5 p-5 sm:p-8">
            {outcome ? (
              <Alert variant={outcome.tone === 'success' ? 'success' : 'destructive'} data-testid="verify-outcome">
                {outcome.tone === 'success' ? <CheckCircle2 aria-hidden="true" /> : <CircleAlert aria-hidden="true" />}
                <AlertDescription>{outcome.text}</AlertDescription>
              </Alert>
            ) : null}

            <form onSubmit={onSubmit} noValidate className="space-y-5">
              {askForEmail ? (
                <div className="space-y-2">
                  <Label htmlFor="verify-email-address">Email</Label>
                  <Input
                    id="verify-email-address"
                    type="email"
                    inputMode="email"
                    autoComplete="email"
                    value={email}
                    onChange={(event) => setEmail(event.target.value)}
                    disabled={verified}
                  />
                </div>
              ) : null}
              <div className="space-y-2">
                <Label htmlFor="verify-code">Verification Code</Label>
                <Input
                  id="verify-code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  placeholder="123456"
                  className="h-12 text-center font-mono text-xl tracking-[0.5em]"
                  value={code}
                  onChange={(event) => setCode(sixDigits(event.target.value))}
                  disabled={verified}
                  aria-describedby="verify-code-hint"
                />
                <p id="verify-code-hint" className="text-xs text-slate-600">
                  6 digits. The code is valid for 60 minutes.
                </p>
              </div>
              <Button type="submit" size="lg" className="w-full" disabled={code.length !== 6 || (askForEmail && !email.trim()) || busy}>
                {verify.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <MailCheck aria-hidden="true" />}
                {verify.isPending ? 'Verifying...' : 'Verify Email'}
              </Button>
            </form>

            <div className="flex flex-col gap-2 border-t border-border pt-5 sm:flex-row sm:items-center sm:justify-between">
              <Button type="button" variant="outline" onClick={onResend} disabled={busy}>
                {resend.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RotateCw aria-hidden="true" />}
                {resend.isPending ? 'Sending...' : 'Resend Verification Code'}
              </Button>
              <Link to="/login" className={buttonVariants({ variant: 'ghost' })}>
                Back to Login
              </Link>
            </div>
            <DevMailboxLink />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
