import { createRoute } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { HomePage } from './HomePage.tsx';

export const homeRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/', component: HomePage });

/** Pages under the public layout (header and footer). */
export const homePublicRoutes = [homeRoute] as const;
