import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../app/layoutRoutes.tsx';
import { AdminDashboardPage } from './AdminDashboard.tsx';
import { DashboardRedirectPage } from './DashboardRedirect.tsx';
import { ParentDashboardPage } from './ParentDashboard.tsx';
import { StudentDashboardPage } from './StudentDashboard.tsx';
import { TutorDashboardPage } from './TutorDashboard.tsx';

/**
 * Role areas, each in its own dashboard shell; every page wraps itself in ProtectedRoute with its roles.
 *
 *   /admin                           admin, finance
 *   /tutor, /tutor-dashboard         tutor
 *   /parent                          parent
 *   /student, /student-dashboard     student, student_secondary
 *   /dashboard                       any signed-in user: "Redirecting..." to the landing page
 */

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

/** Direct children of the root route. */
export const dashboardsRootRoutes = [
  adminRoute,
  tutorRoute,
  tutorDashboardRoute,
  parentRoute,
  studentRoute,
  studentDashboardRoute,
  dashboardRoute,
] as const;
