import type { AnyRouter } from '@tanstack/react-router';
import { dismissToasts } from '../components/ui/toast.tsx';

/**
 * An error toast belongs to the page that raised it: when the user moves to another page (e.g. a
 * failed sign-in followed by a successful one that lands on the dashboard), the red toast closes
 * instead of lingering over the new page. Toasts raised for the new page (success, information)
 * stay. Returns the unsubscribe function.
 */
export function dismissErrorToastsOnNavigation(router: AnyRouter): () => void {
  return router.subscribe('onResolved', (event) => {
    if (event.pathChanged) dismissToasts((toast) => toast.variant === 'destructive');
  });
}
