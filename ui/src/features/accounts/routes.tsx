import { createRoute } from '@tanstack/react-router';
import { focusLayoutRoute, optionalString, publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { AcceptTermsPage } from './AcceptTermsPage.tsx';
import { AdminLoginPage } from './AdminLoginPage.tsx';
import { DevMailboxPage } from './DevMailboxPage.tsx';
import { LoginPage, type LoginTab } from './LoginPage.tsx';
import { RoleSelectionPage } from './RoleSelectionPage.tsx';
import { TutorApplicantPage } from './TutorApplicantPage.tsx';
import { TutorLoginPage } from './TutorLoginPage.tsx';
import { VerifyEmailPage } from './VerifyEmailPage.tsx';

/**
 * Accounts: sign-in, registration, verification, terms, the tutor application.
 *
 *   public layout   /login (?tab=signin|signup, ?error=), /verify-email (?email=),
 *                   /tutor-login and /tutor-signup (?status=submitted), /tutor-applicant
 *   focus layout    /accept-terms, /role-selection, /admin-login, /dev/mailbox
 */

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
  component: function LoginRouteComponent() {
    const { error, tab } = loginRoute.useSearch();
    // A new key per tab: following "Sign up free" while /login is shown switches the tab.
    return <LoginPage key={tab ?? 'signin'} error={error} initialTab={tab} />;
  },
});

export const verifyEmailRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/verify-email',
  validateSearch: (search: Record<string, unknown>): { email?: string } => {
    const email = optionalString(search.email);
    return email ? { email } : {};
  },
  component: function VerifyEmailRouteComponent() {
    const { email } = verifyEmailRoute.useSearch();
    // A new key per address resets the page when the address changes.
    return <VerifyEmailPage key={email ?? ''} email={email} />;
  },
});

const tutorLoginSearch = (search: Record<string, unknown>): { status?: string } => {
  const status = optionalString(search.status);
  return status ? { status } : {};
};

export const tutorLoginRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/tutor-login',
  validateSearch: tutorLoginSearch,
  component: function TutorLoginRouteComponent() {
    const { status } = tutorLoginRoute.useSearch();
    return <TutorLoginPage status={status} />;
  },
});

export const tutorSignupRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/tutor-signup',
  validateSearch: tutorLoginSearch,
  component: function TutorSignupRouteComponent() {
    const { status } = tutorSignupRoute.useSearch();
    return <TutorLoginPage status={status} />;
  },
});

export const tutorApplicantRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/tutor-applicant',
  component: TutorApplicantPage,
});

export const acceptTermsRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/accept-terms',
  component: AcceptTermsPage,
});

export const roleSelectionRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/role-selection',
  component: RoleSelectionPage,
});

export const adminLoginRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/admin-login',
  component: AdminLoginPage,
});

export const devMailboxRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/dev/mailbox',
  component: DevMailboxPage,
});

/** Pages under the public layout (header and footer). */
export const accountsPublicRoutes = [loginRoute, verifyEmailRoute, tutorLoginRoute, tutorSignupRoute, tutorApplicantRoute] as const;

/** Pages under the focus layout (logo only). */
export const accountsFocusRoutes = [acceptTermsRoute, roleSelectionRoute, adminLoginRoute, devMailboxRoute] as const;
