import { createRootRoute, createRoute, Outlet } from '@tanstack/react-router';
import { NotFoundPage } from '../features/not-found/NotFoundPage.tsx';
import { FocusLayout } from './layout/FocusLayout.tsx';
import { PublicLayout, PublicShell } from './layout/PublicLayout.tsx';

/**
 * The root of the route tree and the two pathless layouts that features hang their pages under.
 * Feature route files (`features/<feature>/routes.tsx`) import these; `router.tsx` assembles the tree.
 *
 *   rootRoute                 <Outlet/>; unknown paths → "404 Page Not Found" inside the public shell
 *   ├─ publicLayoutRoute      (id "public") site header + footer: marketing pages, /login, /tutor-login …
 *   ├─ focusLayoutRoute       (id "focus") logo-only header: /accept-terms, /admin-login, /dev/mailbox …
 *   └─ role areas             their own dashboard shell: /admin, /tutor, /parent, /student …
 */

function RootComponent() {
  return <Outlet />;
}

export function RootNotFound() {
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

/** Pathless layout route for single-task pages: logo header only, no site navigation. */
export const focusLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'focus',
  component: FocusLayout,
});

/** A search value as a string (numbers too), or undefined. */
export const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
