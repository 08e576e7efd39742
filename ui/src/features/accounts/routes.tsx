import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { focusLayoutRoute, optionalString, publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { rendersLazyPage } from '../../app/lazyPages.ts';
import type { LoginTab } from './LoginPage.tsx';

/**
 * Accounts: sign-in, registration, verification, terms, the tutor application.
 *
 *   public layout   /login (?tab=signin|signup, ?error=), /verify-email (?email=),
 *                   /tutor-login and /tutor-signup (?status=submitted), /tutor-applicant
 *   focus layout    /accept-terms, /role-selection, /admin-login, /dev/mailbox
 *
 * Each page is a chunk of its own, loaded on demand (app/lazyPages.ts).
 */

const LoginPage = lazyRouteComponent(() => import('./LoginPage.tsx'), 'LoginPage');
const VerifyEmailPage = lazyRouteComponent(() => import('./VerifyEmailPage.tsx'), 'VerifyEmailPage');
const TutorLoginPage = lazyRouteComponent(() => import('./TutorLoginPage.tsx'), 'TutorLoginPage');

export interface LoginSearch {
  error?: string;
  /** `signup` opens the Sign Up tab ("Sign up free" on the public pages). */
  tab?: LoginTab;
}

export const loginRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): LoginSearch => {
    const error = optionalString(search.error);
    const tab = search.tab === 'signup' || search.tab === 'signin' ? search.tab : undefined;
    return { ...(error ? { error } : {}), ...(tab ? { tab } : {}) };
  },
  component: rendersLazyPage(LoginPage, function LoginRouteComponent() {
    const { error, tab } = loginRoute.useSearch();
    // A new key per tab: following "Sign up free" while /login is shown switches the tab.
    return <LoginPage key={tab ?? 'signin'} error={error} initialTab={tab} />;
  }),
});

export const verifyEmailRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/verify-email',
  validateSearch: (search: Record<string, unknown>): { email?: string } => {
    const email = optionalString(search.email);
    return email ? { email } : {};
  },
  component: rendersLazyPage(VerifyEmailPage, function VerifyEmailRouteComponent() {
    const { email } = verifyEmailRoute.useSearch();
    // A new key per address resets the page when the address changes.
    return <VerifyEmailPage key={email ?? ''} email={email} />;
  }),
});

const tutorLoginSearch = (search: Record<string, unknown>): { status?: string } => {
  const status = optionalString(search.status);
  return status ? { status } : {};
};

export const tutorLoginRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/tutor-login',
  validateSearch: tutorLoginSearch,
  component: rendersLazyPage(TutorLoginPage, function TutorLoginRouteComponent() {
    const { status } = tutorLoginRoute.useSearch();
    return <TutorLoginPage status={status} />;
  }),
});

export const tutorSignupRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/tutor-signup',
  validateSearch: tutorLoginSearch,
  component: rendersLazyPage(TutorLoginPage, function TutorSignupRouteComponent() {
    const { status } = tutorSignupRoute.useSearch();
    return <TutorLoginPage status={status} />;
  }),
});

export const tutorApplicantRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/tutor-applicant',
  component: lazyRouteComponent(() => import('./TutorApplicantPage.tsx'), 'TutorApplicantPage'),
});

export const acceptTermsRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/accept-terms',
  component: lazyRouteComponent(() => import('./AcceptTermsPage.tsx'), 'AcceptTermsPage'),
});

export const roleSelectionRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/role-selection',
  component: lazyRouteComponent(() => import('./RoleSelectionPage.tsx'), 'RoleSelectionPage'),
});

export const adminLoginRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/admin-login',
  component: lazyRouteComponent(() => import('./AdminLoginPage.tsx'), 'AdminLoginPage'),
});

export const devMailboxRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/dev/mailbox',
  component: lazyRouteComponent(() => import('./DevMailboxPage.tsx'), 'DevMailboxPage'),
});

/** Pages under the public layout (header and footer). */
export const accountsPublicRoutes = [loginRoute, verifyEmailRoute, tutorLoginRoute, tutorSignupRoute, tutorApplicantRoute] as const;

/** Pages under the focus layout (logo only). */
export const accountsFocusRoutes = [acceptTermsRoute, roleSelectionRoute, adminLoginRoute, devMailboxRoute] as const;
