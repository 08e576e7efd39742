import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';

export const subjectsRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/subjects',
  component: lazyRouteComponent(() => import('./SubjectsPage.tsx'), 'SubjectsPage'),
});

/** Pages under the public layout (header and footer). */
export const subjectsPublicRoutes = [subjectsRoute] as const;
