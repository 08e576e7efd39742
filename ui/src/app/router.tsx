import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { AboutPage } from '../features/about/AboutPage.tsx';
import { ContactPage } from '../features/contact/ContactPage.tsx';
import { HomePage } from '../features/home/HomePage.tsx';
import { HowItWorksPage } from '../features/how-it-works/HowItWorksPage.tsx';
import { NotFoundPage } from '../features/not-found/NotFoundPage.tsx';
import { PricingPage } from '../features/pricing/PricingPage.tsx';
import { SubjectsPage } from '../features/subjects/SubjectsPage.tsx';
import { PublicShell, PublicLayout } from './layout/PublicLayout.tsx';

/**
 * Code-based route tree (no router plugin, no routeTree.gen).
 *
 *   rootRoute                      <Outlet/>; unknown paths → 404 inside the public shell
 *   └─ publicLayoutRoute (id "public")   header + footer
 *      ├─ /              Home
 *      ├─ /how-it-works  How It Works
 *      ├─ /pricing       Pricing
 *      ├─ /subjects      Subjects
 *      ├─ /about         About Us
 *      └─ /contact       Contact
 *
 * To add a route:
 * - a page with the public header and footer (e.g. /login, /tutor-login): create it with
 *   `getParentRoute: () => publicLayoutRoute` and append it to `publicRoutes`;
 * - a page with its own layout (e.g. /admin, /student with a dashboard shell): create it with
 *   `getParentRoute: () => rootRoute` and append it to `rootChildRoutes`.
 * Keep the arrays as tuples (`as const`) so typed `<Link to>` keeps working.
 */

function RootComponent() {
  return <Outlet />;
}

function RootNotFound() {
  return (
    <PublicShell>
      <NotFoundPage />
    </PublicShell>
  );
}

export const rootRoute = createRootRoute({
  component: RootComponent,
  notFoundComponent: RootNotFound,
});

/** Pathless layout route that wraps public pages in the site header and footer. */
export const publicLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'public',
  component: PublicLayout,
});

export const homeRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/', component: HomePage });
export const howItWorksRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/how-it-works',
  component: HowItWorksPage,
});
export const pricingRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/pricing',
  component: PricingPage,
});
export const subjectsRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/subjects',
  component: SubjectsPage,
});
export const aboutRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/about', component: AboutPage });
export const contactRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: '/contact',
  component: ContactPage,
});

/** Children of the public layout (header + footer). Append /login, /tutor-login, … here. */
export const publicRoutes = [homeRoute, howItWorksRoute, pricingRoute, subjectsRoute, aboutRoute, contactRoute] as const;

/** Direct children of the root route. Append role areas with their own layouts here. */
export const rootChildRoutes = [publicLayoutRoute.addChildren(publicRoutes)] as const;

export const routeTree = rootRoute.addChildren(rootChildRoutes);

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultNotFoundComponent: RootNotFound,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
