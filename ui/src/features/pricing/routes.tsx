import { createRoute } from '@tanstack/react-router';
import { publicLayoutRoute } from '../../app/layoutRoutes.tsx';
import { PricingPage } from './PricingPage.tsx';

export const pricingRoute = createRoute({ getParentRoute: () => publicLayoutRoute, path: '/pricing', component: PricingPage });

/** Pages under the public layout (header and footer). */
export const pricingPublicRoutes = [pricingRoute] as const;
