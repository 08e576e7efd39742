import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { focusLayoutRoute } from '../../app/layoutRoutes.tsx';

/**
 * The purchase flow (spec part 2 §2): public routes in the focus layout; paying and choosing need a signed-in student
 * or parent (the server checks every call).
 *
 *   /checkout               Order Summary, promo code, card form
 *   /tutor-selection        choose the course's tutor
 *   /time-slot-selection    the first-session step
 *   /sandbox/checkout/{id}  the sandbox provider's hosted checkout page (repurchase without Stripe)
 *
 * Each page is a chunk loaded on demand (app/lazyPages.ts); Stripe.js comes with the checkout's.
 */
const CheckoutPage = lazyRouteComponent(() => import('./CheckoutPage.tsx'), 'CheckoutPage');
const TutorSelectionPage = lazyRouteComponent(() => import('./TutorSelectionPage.tsx'), 'TutorSelectionPage');
const FirstSessionPage = lazyRouteComponent(() => import('./FirstSessionPage.tsx'), 'FirstSessionPage');
const SandboxCheckoutPage = lazyRouteComponent(() => import('./SandboxCheckoutPage.tsx'), 'SandboxCheckoutPage');

export const checkoutRoute = createRoute({ getParentRoute: () => focusLayoutRoute, path: '/checkout', component: CheckoutPage });
export const tutorSelectionRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/tutor-selection',
  component: TutorSelectionPage,
});
export const timeSlotSelectionRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/time-slot-selection',
  component: FirstSessionPage,
});

export const sandboxCheckoutRoute = createRoute({
  getParentRoute: () => focusLayoutRoute,
  path: '/sandbox/checkout/$sessionId',
  component: SandboxCheckoutPage,
});

export const purchasesFocusRoutes = [checkoutRoute, tutorSelectionRoute, timeSlotSelectionRoute, sandboxCheckoutRoute] as const;
