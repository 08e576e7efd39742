import { createRoute } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { ContactPage } from './ContactPage.tsx';

export const contactRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/contact', component: ContactPage });

/** Pages under the public layout (header and footer). */
export const contactPublicRoutes = [contactRoute] as const;
