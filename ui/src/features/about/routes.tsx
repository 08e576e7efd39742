import { createRoute } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { AboutPage } from './AboutPage.tsx';

export const aboutRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/about', component: AboutPage });

/** Pages under the public layout (header and footer). */
export const aboutPublicRoutes = [aboutRoute] as const;
