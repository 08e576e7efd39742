import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { publicLayoutRoute, rootRoute } from '../../app/layoutRoutes.tsx';

// Each page is a chunk loaded on demand (app/lazyPages.ts).
const TutorDashboardPage = lazyRouteComponent(() => import('./TutorDashboardPage.tsx'), 'TutorDashboardPage');
const TutorOnboardingPage = lazyRouteComponent(() => import('./TutorOnboardingPage.tsx'), 'TutorOnboardingPage');
const TutorsDirectoryPage = lazyRouteComponent(() => import('./TutorsDirectoryPage.tsx'), 'TutorsDirectoryPage');

/** The tutor area (tutor only; each page guards itself): /tutor and /tutor-dashboard are the same page. */
export const tutorRoute = createRoute({ getParentRoute: () => rootRoute, path: '/tutor', component: TutorDashboardPage });
export const tutorDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tutor-dashboard',
  component: TutorDashboardPage,
});
export const tutorOnboardingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tutor-onboarding',
  component: TutorOnboardingPage,
});

/** /tutors "Meet Our Tutors" under the public layout (header and footer). */
export const tutorsDirectoryRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/tutors',
  component: TutorsDirectoryPage,
});

/** Direct children of the root route. */
export const tutorsRootRoutes = [tutorRoute, tutorDashboardRoute, tutorOnboardingRoute] as const;
/** Pages under the public layout. */
export const tutorsPublicRoutes = [tutorsDirectoryRoute] as const;
