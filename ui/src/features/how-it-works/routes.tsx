import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';

export const howItWorksRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/how-it-works',
  component: lazyRouteComponent(() => import('./HowItWorksPage.tsx'), 'HowItWorksPage'),
});

/** Pages under the public layout (header and footer). */
export const howItWorksPublicRoutes = [howItWorksRoute] as const;
