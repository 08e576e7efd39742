import { zodResolver } from '@hookform/resolvers/zod';
import {
  CURRENT_TERMS_VERSION,
  gradeOptions,
  type RegistrationInput,
  type RegistrationPayload,
  type RegistrationValues,
  registrationSchema,
} from '@shared/accounts/accountForms.ts';
import { useNavigate } from '@tanstack/react-router';
import { GraduationCap, Loader2, UserPlus } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import { useRegister } from '../../app/auth/useAuthActions.ts';
import { checkboxClasses, FieldMessage, fieldA11y, selectClasses } from '../../components/FieldMessage.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { AgreementDialog } from './StudentParentAgreement.tsx';

const emptyForm: RegistrationInput = {
  username: '',
  email: '',
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  phone: '',
  role: 'student',
  grade: '',
  isUniversityStudent: false,
  termsAccepted: false,
  termsAcceptedVersion: CURRENT_TERMS_VERSION,
};

/** What POST /api/register receives: the form minus confirmPassword (spec part 1 §3). */
function toPayload(values: RegistrationValues): RegistrationPayload {
  const { confirmPassword: _confirm, phone, ...rest } = values;
  return {
    ...rest,
    ...(phone ? { phone } : {}),
    isUniversityStudent: values.grade === 'University/College',
  };
}

/**
 * Sign up (spec part 1 §2 /login, §5, §8): Student is the only account type. Success goes to
 * /verify-email?email=…; failure toasts "Registration failed" with the server message.
 */
export function SignUpForm() {
  const navigate = useNavigate();
  const registration = useRegister();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegistrationInput, unknown, RegistrationValues>({
    resolver: zodResolver(registrationSchema),
    defaultValues: emptyForm,
  });

  const onSubmit = handleSubmit((values) => {
    registration.mutate(toPayload(values), {
      onSuccess: () => {
        toast({ title: 'Account created', description: 'We sent a 6-digit verification code to your email.' });
        void navigate({ to: '/verify-email', search: { email: values.email } });
      },
      onError: (error) => {
        toast({ title: 'Registration failed', description: errorMessage(error, 'Registration failed'), variant: 'destructive' });
      },
    });
  });

  const pending = registration.isPending;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <fieldset className="rounded-lg border border-brand-100 bg-brand-50/60 p-4">
        <legend className="sr-only">Account type</legend>
        <div className="flex items-start gap-3">
          <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-md bg-white text-brand-700 ring-1 ring-brand-100">
            <GraduationCap className="size-5" aria-hidden="true" />
          </span>
          <div className="space-y-1 text-sm">
            <p className="font-semibold text-slate-900">
              Account type: <span className="text-brand-800">Student</span>
            </p>
            <p className="leading-relaxed text-slate-600">
              Students under 18 must be registered by a parent or guardian. Adult students may register and manage their own account.
            </p>
          </div>
        </div>
      </fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="signup-username">Username</Label>
          <Input
            id="signup-username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            {...fieldA11y('signup-username', errors.username)}
            {...register('username')}
          />
          <FieldMessage id="signup-username-error" error={errors.username} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="signup-email">Email</Label>
          <Input
            id="signup-email"
            type="email"
            inputMode="email"
            autoComplete="email"
            {...fieldA11y('signup-email', errors.email)}
            {...register('email')}
          />
          <FieldMessage id="signup-email-error" error={errors.email} />
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="signup-first-name">First Name</Label>
          <Input
            id="signup-first-name"
            autoComplete="given-name"
            {...fieldA11y('signup-first-name', errors.firstName)}
            {...register('firstName')}
          />
          <FieldMessage id="signup-first-name-error" error={errors.firstName} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="signup-last-name">Last Name</Label>
          <Input
            id="signup-last-name"
            autoComplete="family-name"
            {...fieldA11y('signup-last-name', errors.lastName)}
            {...register('lastName')}
          />
          <FieldMessage id="signup-last-name-error" error={errors.lastName} />
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="signup-phone">Phone (optional)</Label>
          <Input id="signup-phone" type="tel" autoComplete="tel" {...fieldA11y('signup-phone', errors.phone)} {...register('phone')} />
          <FieldMessage id="signup-phone-error" error={errors.phone} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="signup-grade">Grade</Label>
          <select id="signup-grade" className={selectClasses} {...fieldA11y('signup-grade', errors.grade)} {...register('grade')}>
            <option value="">Select a grade</option>
            {gradeOptions.map((grade) => (
              <option key={grade} value={grade}>
                {grade}
              </option>
            ))}
          </select>
          <FieldMessage id="signup-grade-error" error={errors.grade} />
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="signup-password">Password</Label>
          <Input
            id="signup-password"
            type="password"
            autoComplete="new-password"
            {...fieldA11y('signup-password', errors.password, 'signup-password-hint')}
            {...register('password')}
          />
          <p id="signup-password-hint" className="text-xs text-slate-600">
            At least 6 characters.
          </p>
          <FieldMessage id="signup-password-error" error={errors.password} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="signup-confirm-password">Confirm Password</Label>
          <Input
            id="signup-confirm-password"
            type="password"
            autoComplete="new-password"
            {...fieldA11y('signup-confirm-password', errors.confirmPassword)}
            {...register('confirmPassword')}
          />
          <FieldMessage id="signup-confirm-password-error" error={errors.confirmPassword} />
        </div>
      </div>

      <div className="space-y-2">
        <div className="flex items-start gap-3">
          <input
            id="signup-terms"
            type="checkbox"
            className={checkboxClasses}
            {...fieldA11y('signup-terms', errors.termsAccepted)}
            {...register('termsAccepted')}
          />
          <div className="text-sm leading-snug">
            <label htmlFor="signup-terms" className="font-medium text-slate-900">
              I accept the terms and conditions
            </label>
            <p className="mt-1 text-slate-600">
              Read the <AgreementDialog triggerLabel="Student/Parent Agreement" /> (version {CURRENT_TERMS_VERSION}) before you accept.
            </p>
          </div>
        </div>
        <FieldMessage id="signup-terms-error" error={errors.termsAccepted} />
      </div>

      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
        {pending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
