import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginInput, type LoginValues, loginSchema } from '@shared/accounts/accountForms.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { CircleAlert, Eye, EyeOff, Loader2, LogIn, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import { postLogin, storeSignedInUser } from '../../app/auth/useAuthActions.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { FieldMessage, fieldA11y } from '../../components/FieldMessage.tsx';
import { Alert, AlertDescription } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { accountsApi } from './api.ts';

export const ADMIN_LOGIN_FAILED = 'Invalid email or password';

/** Roles the admin area (/admin) admits; anyone else is signed out again. */
const ADMIN_AREA_ROLES = new Set(['admin', 'finance']);

/**
 * The admin login page (spec part 1 §2, §8): username and password with a show/hide toggle; a
 * non-admin account is signed out again and gets the same answer as a wrong password.
 */
export function AdminLoginPage() {
  useDocumentTitle('Admin Login');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [showPassword, setShowPassword] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput, unknown, LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });

  const login = useMutation({
    mutationFn: async (values: LoginValues) => {
      const user = await postLogin(values);
      if (!ADMIN_AREA_ROLES.has(user.role)) {
        await accountsApi.logout().catch(() => undefined);
        throw new Error(ADMIN_LOGIN_FAILED);
      }
      return user;
    },
    onSuccess: async (user) => {
      storeSignedInUser(queryClient, user);
      toast({ title: 'Login successful', description: user.role === 'admin' ? 'Welcome back, Admin' : 'Welcome back' });
      await navigate({ to: '/admin' });
    },
    onError: (error) => {
      setFailure(error.message === ADMIN_LOGIN_FAILED ? ADMIN_LOGIN_FAILED : errorMessage(error, ADMIN_LOGIN_FAILED));
    },
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    login.mutate(values);
  });

  return (
    <section className="flex min-h-[calc(100dvh-8rem)] items-center bg-slate-50 px-4 py-12">
      <div className="mx-auto w-full max-w-md">
        <div className="text-center">
          <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-brand-900 text-white shadow-sm">
            <ShieldCheck className="size-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Admin Login</h1>
          <p className="mt-2 text-sm text-slate-600">For Topmark staff only.</p>
        </div>
        <Card className="mt-8">
          <CardContent className="p-5 sm:p-8">
            <form onSubmit={onSubmit} noValidate className="space-y-5">
              {failure ? (
                <Alert variant="destructive" data-testid="admin-login-error">
                  <CircleAlert aria-hidden="true" />
                  <AlertDescription>{failure}</AlertDescription>
                </Alert>
              ) : null}
              <div className="space-y-2">
                <Label htmlFor="admin-username">Username</Label>
                <Input
                  id="admin-username"
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  {...fieldA11y('admin-username', errors.username)}
                  {...register('username')}
                />
                <FieldMessage id="admin-username-error" error={errors.username} />
              </div>
              <div className="space-y-2">
                <Label htmlFor="admin-password">Password</Label>
                <div className="relative">
                  <Input
                    id="admin-password"
                    type={showPassword ? 'text' : 'password'}
                    autoComplete="current-password"
                    className="pr-11"
                    {...fieldA11y('admin-password', errors.password)}
                    {...register('password')}
                  />
                  <button
                    type="button"
                    className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-slate-500 hover:text-slate-900"
                    onClick={() => setShowPassword((shown) => !shown)}
                    aria-pressed={showPassword}
                    title={showPassword ? 'Hide password' : 'Show password'}
                  >
                    {showPassword ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
                    <span className="sr-only">Show password</span>
                  </button>
                </div>
                <FieldMessage id="admin-password-error" error={errors.password} />
              </div>
              <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
                {login.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <LogIn aria-hidden="true" />}
                {login.isPending ? 'Signing in...' : 'Sign In'}
              </Button>
            </form>
          </CardContent>
        </Card>
        <nav aria-label="Other sign-in pages" className="mt-6 flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm">
          <Link to="/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
            Student & Parent Login
          </Link>
          <Link to="/tutor-login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
            Tutor Login
          </Link>
          <Link to="/" className="font-medium text-brand-700 underline-offset-4 hover:underline">
            Back to home
          </Link>
        </nav>
      </div>
    </section>
  );
}
