import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';

export const aboutRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/about',
  component: lazyRouteComponent(() => import('./AboutPage.tsx'), 'AboutPage'),
});

/** Pages under the public layout (header and footer). */
export const aboutPublicRoutes = [aboutRoute] as const;
