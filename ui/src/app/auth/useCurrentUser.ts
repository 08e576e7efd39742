import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '../api.ts';
import type { User } from './types.ts';

/** The query key of the current user; the login, logout and register actions write to it. */
export const currentUserKey = ['/api/user'] as const;

/**
 * The signed-in user (spec part 1 §4, §7): `undefined` while loading, `null` when anonymous
 * (GET /api/user answered 401).
 */
export function useCurrentUser() {
  return useQuery<User | null>({
    queryKey: currentUserKey,
    queryFn: getQueryFn<User>({ on401: 'returnNull' }),
  });
}
