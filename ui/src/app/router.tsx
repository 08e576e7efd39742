import { createRouter } from '@tanstack/react-router';
import { aboutPublicRoutes } from '../features/about/routes.tsx';
import { accountsFocusRoutes, accountsPublicRoutes } from '../features/accounts/routes.tsx';
import { adminRootRoutes } from '../features/admin/routes.tsx';
import { contactPublicRoutes } from '../features/contact/routes.tsx';
import { dashboardsRootRoutes } from '../features/dashboards/routes.tsx';
import { homePublicRoutes } from '../features/home/routes.tsx';
import { howItWorksPublicRoutes } from '../features/how-it-works/routes.tsx';
import { pricingPublicRoutes } from '../features/pricing/routes.tsx';
import { purchasesFocusRoutes } from '../features/purchases/routes.tsx';
import { subjectsPublicRoutes } from '../features/subjects/routes.tsx';
import { tutorsPublicRoutes, tutorsRootRoutes } from '../features/tutors/routes.tsx';
import { focusLayoutRoute, publicLayoutRoute, RootNotFound, rootRoute } from './layoutRoutes.tsx';
import { RouteError, RoutePending } from './RouteStates.tsx';
import { dismissErrorToastsOnNavigation } from './toastsOnNavigation.ts';

/**
 * The route tree: only the list of features. Each feature declares its pages in
 * `features/<feature>/routes.tsx` under one of the layouts of `layoutRoutes.tsx` and exports them
 * as tuples (`as const`, so typed `<Link to>` keeps working); add a feature by spreading its
 * tuples into the matching list below.
 */
export const routeTree = rootRoute.addChildren([
  publicLayoutRoute.addChildren([
    ...homePublicRoutes,
    ...howItWorksPublicRoutes,
    ...pricingPublicRoutes,
    ...subjectsPublicRoutes,
    ...aboutPublicRoutes,
    ...contactPublicRoutes,
    ...accountsPublicRoutes,
    ...tutorsPublicRoutes,
  ]),
  focusLayoutRoute.addChildren([...accountsFocusRoutes, ...purchasesFocusRoutes]),
  ...dashboardsRootRoutes,
  ...adminRootRoutes,
  ...tutorsRootRoutes,
]);

export const router = createRouter({
  routeTree,
  // Hover or focus on a link fetches the page's chunk (app/lazyPages.ts) before the click.
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultNotFoundComponent: RootNotFound,
  // A chunk still loading after 300 ms shows a spinner, kept 300 ms at least so it does not flicker.
  defaultPendingComponent: RoutePending,
  defaultPendingMs: 300,
  defaultPendingMinMs: 300,
  defaultErrorComponent: RouteError,
});

dismissErrorToastsOnNavigation(router);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
