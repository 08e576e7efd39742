import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { AboutPage } from '../features/about/AboutPage.tsx';
import { AcceptTermsPage } from '../features/accounts/AcceptTermsPage.tsx';
import { AdminLoginPage } from '../features/accounts/AdminLoginPage.tsx';
import { DevMailboxPage } from '../features/accounts/DevMailboxPage.tsx';
import { LoginPage } from '../features/accounts/LoginPage.tsx';
import { RoleSelectionPage } from '../features/accounts/RoleSelectionPage.tsx';
import { TutorApplicantPage } from '../features/accounts/TutorApplicantPage.tsx';
import { TutorLoginPage } from '../features/accounts/TutorLoginPage.tsx';
import { VerifyEmailPage } from '../features/accounts/VerifyEmailPage.tsx';
import { ContactPage } from '../features/contact/ContactPage.tsx';
import { AdminDashboardPage } from '../features/dashboards/AdminDashboard.tsx';
import { DashboardRedirectPage } from '../features/dashboards/DashboardRedirect.tsx';
import { ParentDashboardPage } from '../features/dashboards/ParentDashboard.tsx';
import { StudentDashboardPage } from '../features/dashboards/StudentDashboard.tsx';
import { TutorDashboardPage } from '../features/dashboards/TutorDashboard.tsx';
import { HomePage } from '../features/home/HomePage.tsx';
import { HowItWorksPage } from '../features/how-it-works/HowItWorksPage.tsx';
import { NotFoundPage } from '../features/not-found/NotFoundPage.tsx';
import { PricingPage } from '../features/pricing/PricingPage.tsx';
import { SubjectsPage } from '../features/subjects/SubjectsPage.tsx';
import { FocusLayout } from './layout/FocusLayout.tsx';
import { PublicLayout, PublicShell } from './layout/PublicLayout.tsx';

/**
 * Code-based route tree (no router plugin, no routeTree.gen).
 *
 *   rootRoute                      <Outlet/>; unknown paths → 404 inside the public shell
 *   └─ publicLayoutRoute (id "public")   header + footer
 *      ├─ /              Home
 *      ├─ /how-it-works  How It Works
 *      ├─ /pricing       Pricing
 *      ├─ /subjects      Subjects
 *      ├─ /about         About Us
 *      ├─ /contact       Contact
 *      ├─ /login         Student & parent sign in / sign up / password reset   (?error=)
 *      ├─ /verify-email  E-mail verification                                   (?email=)
 *      ├─ /tutor-login   Tutor application and sign-in                         (?status=submitted)
 *      ├─ /tutor-signup  (same page as /tutor-login)
 *      └─ /tutor-applicant  Application submitted: what to send, what happens next
 *   └─ focusLayoutRoute (id "focus")    logo-only header
 *      ├─ /accept-terms  Terms acceptance (signed-in users without accepted terms)
 *      ├─ /role-selection  Create a student account
 *      ├─ /admin-login   Admin sign in
 *      └─ /dev/mailbox   Mails captured by the outbox mailer (dev, no SMTP)
 *   ├─ /admin                       admin, finance        (ProtectedRoute in the page)
 *   ├─ /tutor, /tutor-dashboard     tutor
 *   ├─ /parent                      parent
 *   ├─ /student, /student-dashboard student, student_secondary
 *   └─ /dashboard                   any signed-in user: "Redirecting..." to the landing page
 *
 * To add a route:
 * - a page with the public header and footer (e.g. /login, /tutor-login): create it with
 *   `getParentRoute: () => publicLayoutRoute` and append it to `publicRoutes`;
 * - a page with its own layout (e.g. /admin, /student with a dashboard shell): create it with
 *   `getParentRoute: () => rootRoute` and append it to `rootChildRoutes`.
 * Keep the arrays as tuples (`as const`) so typed `<Link to>` keeps working.
 */

function RootComponent() {
  return <Outlet />;
}

function RootNotFound() {
  return (
    <PublicShell>
      <NotFoundPage />
    </PublicShell>
  );
}

export const rootRoute = createRootRoute({
  component: RootComponent,
  notFoundComponent: RootNotFound,
});

/** Pathless layout route that wraps public pages in the site header and footer. */
export const publicLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'public',
  component: PublicLayout,
});

export const homeRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/', component: HomePage });
export const howItWorksRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/how-it-works',
  component: HowItWorksPage,
});
export const pricingRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/pricing',
  component: PricingPage,
});
export const subjectsRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/subjects',
  component: SubjectsPage,
});
export const aboutRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/about', component: AboutPage });
export const contactRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/contact',
  component: ContactPage,
});

// ---- Accounts (sign-in, registration, verification, tutor application) -------------------------

const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

export const loginRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { error?: string } => {
    const error = optionalString(search.error);
    return error ? { error } : {};
  },
  component: function LoginRouteComponent() {
    const { error } = loginRoute.useSearch();
    return <LoginPage error={error} />;
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

/** Children of the public layout (header + footer). */
export const publicRoutes = [
  homeRoute,
  howItWorksRoute,
  pricingRoute,
  subjectsRoute,
  aboutRoute,
  contactRoute,
  loginRoute,
  verifyEmailRoute,
  tutorLoginRoute,
  tutorSignupRoute,
  tutorApplicantRoute,
] as const;

/** Pathless layout route for single-task pages: logo header only, no site navigation. */
export const focusLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'focus',
  component: FocusLayout,
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
export const focusRoutes = [acceptTermsRoute, roleSelectionRoute, adminLoginRoute, devMailboxRoute] as const;

// ---- Role areas (each page wraps itself in ProtectedRoute with its roles) -----------------------

export const adminRoute = createRoute({ getParentRoute: () => rootRoute, path: '/admin', component: AdminDashboardPage });
export const tutorRoute = createRoute({ getParentRoute: () => rootRoute, path: '/tutor', component: TutorDashboardPage });
export const tutorDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tutor-dashboard',
  component: TutorDashboardPage,
});
export const parentRoute = createRoute({ getParentRoute: () => rootRoute, path: '/parent', component: ParentDashboardPage });
export const studentRoute = createRoute({ getParentRoute: () => rootRoute, path: '/student', component: StudentDashboardPage });
export const studentDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/student-dashboard',
  component: StudentDashboardPage,
});
export const dashboardRoute = createRoute({ getParentRoute: () => rootRoute, path: '/dashboard', component: DashboardRedirectPage });

/** Direct children of the root route. Append role areas with their own layouts here. */
export const rootChildRoutes = [
  publicLayoutRoute.addChildren(publicRoutes),
  focusLayoutRoute.addChildren(focusRoutes),
  adminRoute,
  tutorRoute,
  tutorDashboardRoute,
  parentRoute,
  studentRoute,
  studentDashboardRoute,
  dashboardRoute,
] as const;

export const routeTree = rootRoute.addChildren(rootChildRoutes);

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultNotFoundComponent: RootNotFound,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
