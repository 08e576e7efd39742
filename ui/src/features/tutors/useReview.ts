import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { errorMessage } from '../../app/api.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { refreshAfterReview } from './consoleApi.ts';

/**
 * One review action on one application (approve, reject, deny): the spec's success toast, the
 * error toast "Error" with the server's message (or `fallback`), and every list and counter
 * refreshed before the action counts as finished, so its buttons stay disabled until the row
 * leaves. A second click while it runs does nothing.
 */
export function useReview({
  run,
  success,
  fallback,
}: {
  run: () => Promise<unknown>;
  success: { title: string; description?: string };
  fallback: string;
}) {
  const queryClient = useQueryClient();
  const running = useRef(false);
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: async () => {
      toast({ title: success.title, description: success.description, variant: 'success' });
      await refreshAfterReview(queryClient);
    },
    onError: async (error) => {
      toast({ title: 'Error', description: errorMessage(error, fallback), variant: 'destructive' });
      // Someone else may have reviewed it meanwhile (409): show the lists as they are now.
      await refreshAfterReview(queryClient);
    },
    onSettled: () => {
      running.current = false;
    },
  });
  const start = () => {
    if (running.current) return;
    running.current = true;
    mutation.mutate();
  };
  return { start, isPending: mutation.isPending };
}
