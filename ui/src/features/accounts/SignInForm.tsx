import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginInput, type LoginValues, loginSchema } from '@shared/accounts/accountForms.ts';
import { useNavigate } from '@tanstack/react-router';
import { Loader2, LogIn } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import { useLogin } from '../../app/auth/useAuthActions.ts';
import { FieldMessage, fieldA11y } from '../../components/FieldMessage.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';

export const UNVERIFIED_EMAIL_MESSAGE = 'Please verify your email before logging in';

/**
 * Sign in (spec part 1 §2 /login, §5, §8). Success stores the user; the login page then redirects
 * by role. An unverified e-mail sends the visitor to /verify-email.
 */
export function SignInForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const login = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput, unknown, LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit((values) => {
    login.mutate(values, {
      onError: (error) => {
        const message = errorMessage(error, 'Login failed');
        if (message === UNVERIFIED_EMAIL_MESSAGE) {
          toast({ title: 'Email verification required', description: 'Redirecting you to verify your email address...' });
          // Spec part 1 §8: the username as given when it contains "@", otherwise the username itself,
          // i.e. always what was typed (the verify page asks for the address if it is not one).
          void navigate({ to: '/verify-email', search: { email: values.username } });
          return;
        }
        toast({ title: 'Login failed', description: message, variant: 'destructive' });
      },
    });
  });

  const pending = login.isPending;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <div className="space-y-2">
        <Label htmlFor="signin-username">Username or Email</Label>
        <Input
          id="signin-username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...fieldA11y('signin-username', errors.username)}
          {...register('username')}
        />
        <FieldMessage id="signin-username-error" error={errors.username} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="signin-password">Password</Label>
        <Input
          id="signin-password"
          type="password"
          autoComplete="current-password"
          {...fieldA11y('signin-password', errors.password)}
          {...register('password')}
        />
        <FieldMessage id="signin-password-error" error={errors.password} />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <LogIn aria-hidden="true" />}
        {pending ? 'Signing in...' : 'Sign In'}
      </Button>
      {/* After Sign In: Tab goes Username, Password, Sign In, and only then to the way out of a forgotten password. */}
      <div className="-mt-2 flex justify-center">
        <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={onForgotPassword}>
          Forgot password?
        </Button>
      </div>
    </form>
  );
}
