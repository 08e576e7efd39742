import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/layoutRoutes.tsx';

/**
 * Role areas, each in its own dashboard shell (the admin and tutor areas live in their features); every page wraps itself in ProtectedRoute with its roles.
 *
 *   /parent                          parent
 *   /student, /student-dashboard     student, student_secondary
 *   /student-info/{studentId}        admin, tutor (a student they teach), parent, student, student_secondary
 *   /dashboard                       any signed-in user: "Redirecting..." to the landing page
 *
 * Each area is a chunk loaded on demand (app/lazyPages.ts).
 */
const ParentDashboardPage = lazyRouteComponent(() => import('./ParentDashboard.tsx'), 'ParentDashboardPage');
const StudentDashboardPage = lazyRouteComponent(() => import('./StudentDashboard.tsx'), 'StudentDashboardPage');
const StudentInfoPage = lazyRouteComponent(() => import('./StudentInfoPage.tsx'), 'StudentInfoPage');
const DashboardRedirectPage = lazyRouteComponent(() => import('./DashboardRedirect.tsx'), 'DashboardRedirectPage');

export const parentRoute = createRoute({ getParentRoute: () => rootRoute, path: '/parent', component: ParentDashboardPage });
export const studentRoute = createRoute({ getParentRoute: () => rootRoute, path: '/student', component: StudentDashboardPage });
export const studentDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/student-dashboard',
  component: StudentDashboardPage,
});
export const studentInfoRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/student-info/$studentId',
  component: StudentInfoPage,
});
export const dashboardRoute = createRoute({ getParentRoute: () => rootRoute, path: '/dashboard', component: DashboardRedirectPage });

/** Direct children of the root route. */
export const dashboardsRootRoutes = [parentRoute, studentRoute, studentDashboardRoute, studentInfoRoute, dashboardRoute] as const;
