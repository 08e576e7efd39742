import { zodResolver } from '@hookform/resolvers/zod';
import {
  type ResetPasswordInput,
  type ResetPasswordValues,
  type ResetRequestInput,
  type ResetRequestValues,
  resetPasswordSchema,
  resetRequestSchema,
} from '@shared/accounts/accountForms.ts';
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, CircleAlert, KeyRound, Loader2, Mail } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import { FieldMessage, fieldA11y } from '../../components/FieldMessage.tsx';
import { Alert, AlertDescription } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { accountsApi } from './api.ts';
import { DevMailboxLink } from './devMailbox.tsx';

const FILL_ALL_FIELDS = 'Please fill in all fields';

/** Keeps digits only, at most 6 (spec part 1 §5: the code input accepts digits only). */
export const sixDigits = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/**
 * The two-step password reset inside /login (spec part 1 §2, §5, §8). Step 1 sends a code to the
 * address; step 2 takes the code and the new password. Back arrows return to step 1; success
 * returns to the sign-in view through `onDone`.
 */
export function ForgotPassword({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState<string | null>(null);
  if (email === null) return <RequestStep onBack={onDone} onSent={setEmail} />;
  return <ResetStep email={email} onBack={() => setEmail(null)} onDone={onDone} />;
}

function StepHeader({ title, description, back }: { title: string; description: string; back: { label: string; onClick: () => void } }) {
  return (
    <div className="flex items-start gap-2">
      <Button type="button" variant="ghost" size="icon" className="-ml-2 shrink-0" onClick={back.onClick} aria-label={back.label}>
        <ArrowLeft aria-hidden="true" />
      </Button>
      <div className="space-y-1 pt-1.5">
        <h2 className="text-lg leading-tight font-semibold text-slate-900">{title}</h2>
        <p className="text-sm text-slate-600">{description}</p>
      </div>
    </div>
  );
}

function RequestStep({ onBack, onSent }: { onBack: () => void; onSent: (email: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetRequestInput, unknown, ResetRequestValues>({
    resolver: zodResolver(resetRequestSchema),
    defaultValues: { email: '' },
  });
  const request = useMutation({
    mutationFn: async (values: ResetRequestValues) => {
      await accountsApi.requestPasswordReset(values);
    },
  });

  const onSubmit = handleSubmit((values) => {
    request.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Reset Code Sent', description: 'Check your email for a 6-digit code.' });
        onSent(values.email);
      },
      onError: (error) => {
        toast({ title: 'Error', description: errorMessage(error, 'Failed to send reset code'), variant: 'destructive' });
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <StepHeader
        title="Reset your password"
        description="Enter the email address of your account and we will send you a 6-digit reset code."
        back={{ label: 'Back to sign in', onClick: onBack }}
      />
      <div className="space-y-2">
        <Label htmlFor="reset-request-email">Email</Label>
        <Input
          id="reset-request-email"
          type="email"
          inputMode="email"
          autoComplete="email"
          {...fieldA11y('reset-request-email', errors.email)}
          {...register('email')}
        />
        <FieldMessage id="reset-request-email-error" error={errors.email} />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
        {request.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Mail aria-hidden="true" />}
        {request.isPending ? 'Sending...' : 'Send Reset Code'}
      </Button>
    </form>
  );
}

function ResetStep({ email, onBack, onDone }: { email: string; onBack: () => void; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordInput, unknown, ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { email, code: '', newPassword: '', confirmPassword: '' },
  });
  const codeField = register('code');
  const reset = useMutation({
    mutationFn: async ({ confirmPassword: _confirm, ...payload }: ResetPasswordValues) => {
      await accountsApi.resetPassword(payload);
    },
  });

  const onSubmit = handleSubmit((values) => {
    reset.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Password Reset Successful', description: 'You can now log in with your new password.' });
        onDone();
      },
      onError: (error) => {
        toast({ title: 'Error', description: errorMessage(error, 'Failed to reset password'), variant: 'destructive' });
      },
    });
  });

  // "Please fill in all fields" is said once above the fields rather than under each empty one.
  const missing = Object.values(errors).some((error) => error?.message === FILL_ALL_FIELDS);
  const own = <T extends { message?: string } | undefined>(error: T) => (error?.message === FILL_ALL_FIELDS ? undefined : error);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <StepHeader
        title="Enter your reset code"
        description={`We sent a 6-digit code to ${email}. It is valid for 15 minutes.`}
        back={{ label: 'Back to the email step', onClick: onBack }}
      />
      <DevMailboxLink />
      {missing ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{FILL_ALL_FIELDS}</AlertDescription>
        </Alert>
      ) : null}
      <input type="hidden" {...register('email')} />
      <div className="space-y-2">
        <Label htmlFor="reset-code">Reset Code</Label>
        <Input
          id="reset-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="123456"
          className="font-mono tracking-[0.3em]"
          {...fieldA11y('reset-code', own(errors.code))}
          aria-invalid={errors.code ? true : undefined}
          {...codeField}
          onChange={(event) => {
            event.target.value = sixDigits(event.target.value);
            return codeField.onChange(event);
          }}
        />
        <FieldMessage id="reset-code-error" error={own(errors.code)} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="reset-new-password">New Password</Label>
        <Input
          id="reset-new-password"
          type="password"
          autoComplete="new-password"
          {...fieldA11y('reset-new-password', own(errors.newPassword))}
          aria-invalid={errors.newPassword ? true : undefined}
          {...register('newPassword')}
        />
        <FieldMessage id="reset-new-password-error" error={own(errors.newPassword)} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="reset-confirm-password">Confirm New Password</Label>
        <Input
          id="reset-confirm-password"
          type="password"
          autoComplete="new-password"
          {...fieldA11y('reset-confirm-password', own(errors.confirmPassword))}
          aria-invalid={errors.confirmPassword ? true : undefined}
          {...register('confirmPassword')}
        />
        <FieldMessage id="reset-confirm-password-error" error={own(errors.confirmPassword)} />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
        {reset.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
        {reset.isPending ? 'Resetting...' : 'Reset Password'}
      </Button>
    </form>
  );
}
