import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { Toaster } from '../components/ui/toast.tsx';
import { queryClient } from './queryClient.ts';
import { router } from './router.tsx';

/** Providers shared by every screen: data, toasts and the router (tooltips bring their own: components/ui/tooltip.tsx). */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  );
}
