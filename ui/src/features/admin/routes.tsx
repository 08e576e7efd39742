import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../app/layoutRoutes.tsx';
import { AdminDashboardPage } from './AdminPage.tsx';

/** /admin (admin, finance): the operations console in its own shell; the page wraps itself in ProtectedRoute. */
export const adminRoute = createRoute({ getParentRoute: () => rootRoute, path: '/admin', component: AdminDashboardPage });

/** Direct children of the root route. */
export const adminRootRoutes = [adminRoute] as const;
