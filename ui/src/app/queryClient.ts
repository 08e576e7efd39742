import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api.ts';

/**
 * Data-fetch defaults (spec part 1 §9): no retries for reads or writes, data never goes stale,
 * no refetch on window focus, no polling. The default query function GETs the joined query key
 * and treats 401 as an error; pass `queryFn: getQueryFn({ on401: 'returnNull' })` for the
 * current-user read.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
