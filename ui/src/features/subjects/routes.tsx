import { createRoute } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { SubjectsPage } from './SubjectsPage.tsx';

export const subjectsRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/subjects', component: SubjectsPage });

/** Pages under the public layout (header and footer). */
export const subjectsPublicRoutes = [subjectsRoute] as const;
