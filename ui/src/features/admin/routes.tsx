import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../app/layoutRoutes.tsx';
import { AdminDashboardPage } from './AdminPage.tsx';
import { validateAdminSearch } from './tabs.ts';

/**
 * /admin (admin, finance): the operations console in its own shell; the page wraps itself in
 * ProtectedRoute. `?tab=` names the selected tab, so reload and back keep it.
 */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  validateSearch: validateAdminSearch,
  component: function AdminRouteComponent() {
    const { tab, history } = adminRoute.useSearch();
    return <AdminDashboardPage tab={tab} history={history} />;
  },
});

/** Direct children of the root route. */
export const adminRootRoutes = [adminRoute] as const;
