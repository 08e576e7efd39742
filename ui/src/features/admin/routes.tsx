import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/layoutRoutes.tsx';
import { rendersLazyPage } from '../../app/lazyPages.ts';
import { validateAdminSearch } from './tabs.ts';

/**
 * /admin (admin, finance): the operations console in its own shell; the page wraps itself in
 * ProtectedRoute. `?tab=` names the selected tab, so reload and back keep it. The console and the
 * libraries only it uses (tables, charts) are chunks loaded on demand (app/lazyPages.ts).
 */
const AdminDashboardPage = lazyRouteComponent(() => import('./AdminPage.tsx'), 'AdminDashboardPage');

export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  validateSearch: validateAdminSearch,
  component: rendersLazyPage(AdminDashboardPage, function AdminRouteComponent() {
    const { tab, history } = adminRoute.useSearch();
    return <AdminDashboardPage tab={tab} history={history} />;
  }),
});

/** Direct children of the root route. */
export const adminRootRoutes = [adminRoute] as const;
