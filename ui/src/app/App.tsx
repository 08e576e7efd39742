import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { Toaster } from '../components/ui/toast.tsx';
import { TooltipProvider } from '../components/ui/tooltip.tsx';
import { queryClient } from './queryClient.ts';
import { router } from './router.tsx';

/** Providers shared by every screen: data, tooltips, toasts and the router. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
