import { createRoute } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { HowItWorksPage } from './HowItWorksPage.tsx';

export const howItWorksRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/how-it-works', component: HowItWorksPage });

/** Pages under the public layout (header and footer). */
export const howItWorksPublicRoutes = [howItWorksRoute] as const;
