import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';

export const contactRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/contact',
  component: lazyRouteComponent(() => import('./ContactPage.tsx'), 'ContactPage'),
});

/** Pages under the public layout (header and footer). */
export const contactPublicRoutes = [contactRoute] as const;
