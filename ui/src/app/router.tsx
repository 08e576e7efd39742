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
  // A page whose chunk is not loaded yet shows a spinner at once (kept 150 ms at least, so it does
  // not flicker), rather than leaving the previous page on screen under the new address: a redirect
  // (sign-in to /accept-terms) would show the old page's controls with the new page's URL.
  defaultPendingComponent: RoutePending,
  defaultPendingMs: 0,
  defaultPendingMinMs: 150,
  defaultErrorComponent: RouteError,
});

dismissErrorToastsOnNavigation(router);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
