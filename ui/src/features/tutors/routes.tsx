import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../app/layoutRoutes.tsx';
import { TutorDashboardPage } from './TutorDashboardPage.tsx';

/** The tutor area (tutor only; each page wraps itself in ProtectedRoute): /tutor and /tutor-dashboard are the same page. */
export const tutorRoute = createRoute({ getParentRoute: () => rootRoute, path: '/tutor', component: TutorDashboardPage });
export const tutorDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tutor-dashboard',
  component: TutorDashboardPage,
});

/** Direct children of the root route. */
export const tutorsRootRoutes = [tutorRoute, tutorDashboardRoute] as const;
