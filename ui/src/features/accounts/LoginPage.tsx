import { Link } from '@tanstack/react-router';
import { CircleAlert, GraduationCap } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { StudentGoogleSignIn } from './GoogleSignInButton.tsx';
import { SignedOutOnly } from './SignedOutOnly.tsx';
import { SignInForm } from './SignInForm.tsx';

// Sign Up (with the agreement) and the password reset load when they are opened, or when the
// pointer or focus comes to their tab: the first load of /login carries only what signing in needs.
const loadSignUp = () => import('./SignUpForm.tsx');
const SignUpForm = lazy(() => loadSignUp().then((m) => ({ default: m.SignUpForm })));
const loadForgotPassword = () => import('./ForgotPassword.tsx');
const ForgotPassword = lazy(() => loadForgotPassword().then((m) => ({ default: m.ForgotPassword })));

function FormLoading() {
  return (
    <div role="status" className="flex min-h-64 items-center justify-center text-sm text-slate-600">
      Loading…
    </div>
  );
}

export type LoginTab = 'signin' | 'signup';

/**
 * /login for students and parents (spec part 1 §2): Sign In and Sign Up tabs, the forgot-password
 * flow inside the Sign In tab, Sign in with Google for students, a link to the tutor login. Signed-in users are redirected by role.
 * `error` is the reason a Google sign-in came back to /login?error=….
 */
export function LoginPage({ error, initialTab }: { error?: string | undefined; initialTab?: LoginTab | undefined }) {
  useDocumentTitle('Student Login');
  return (
    <SignedOutOnly>
      <LoginContent error={error} initialTab={initialTab ?? 'signin'} />
    </SignedOutOnly>
  );
}

function LoginContent({ error, initialTab }: { error?: string | undefined; initialTab: LoginTab }) {
  const [tab, setTab] = useState<LoginTab>(initialTab);
  const [resetting, setResetting] = useState(false);

  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-12 sm:py-16">
      <div className="mx-auto max-w-xl">
        <div className="text-center">
          <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-white text-brand-700 shadow-sm ring-1 ring-border">
            <GraduationCap className="size-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Student & Parent Login</h1>
          <p className="mt-3 text-base text-slate-600">Sign in to book and follow your sessions, or create a student account.</p>
        </div>

        {error ? (
          <Alert variant="destructive" className="mt-6">
            <CircleAlert aria-hidden="true" />
            <AlertTitle>Sign-in did not complete</AlertTitle>
            <AlertDescription>{signInErrorText(error)}</AlertDescription>
          </Alert>
        ) : null}

        <Card className="mt-8">
          <CardContent className="p-5 sm:p-8">
            <Tabs
              value={tab}
              onValueChange={(value) => {
                setTab(value as LoginTab);
                setResetting(false);
              }}
            >
              <TabsList aria-label="Sign in or create an account">
                <TabsTrigger value="signin">Sign In</TabsTrigger>
                <TabsTrigger value="signup" onPointerEnter={() => void loadSignUp()} onFocus={() => void loadSignUp()}>
                  Sign Up
                </TabsTrigger>
              </TabsList>
              <TabsContent value="signin" className="pt-2">
                {resetting ? (
                  <Suspense fallback={<FormLoading />}>
                    <ForgotPassword onDone={() => setResetting(false)} />
                  </Suspense>
                ) : (
                  <div className="space-y-6" onPointerOver={() => void loadForgotPassword()}>
                    <SignInForm onForgotPassword={() => setResetting(true)} />
                    <StudentGoogleSignIn />
                  </div>
                )}
              </TabsContent>
              <TabsContent value="signup" className="pt-2">
                <div className="space-y-6">
                  <Suspense fallback={<FormLoading />}>
                    <SignUpForm />
                  </Suspense>
                  <StudentGoogleSignIn />
                </div>
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>

        <p className="mt-6 text-center text-sm text-slate-600">
          Are you a tutor?{' '}
          <Link to="/tutor-login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
            Go to the tutor login
          </Link>
        </p>
      </div>
    </section>
  );
}

/** The reasons the server's Google callback gives, in words a person can act on. */
const signInErrors: Record<string, string> = {
  oauth_state: 'Your sign-in took too long or was started in another tab. Please try again.',
  google: 'Google sign-in did not complete. Please try again.',
  google_unavailable: 'Google sign-in is not available right now. Please sign in with your username and password.',
  access_denied: 'Google sign-in was cancelled.',
  deactivated: 'This account has been deactivated. Please contact support.',
};

export function signInErrorText(code: string): string {
  return signInErrors[code] ?? 'Sign-in did not complete. Please try again.';
}
