import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';

export const pricingRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/pricing',
  component: lazyRouteComponent(() => import('./PricingPage.tsx'), 'PricingPage'),
});

/** Pages under the public layout (header and footer). */
export const pricingPublicRoutes = [pricingRoute] as const;
