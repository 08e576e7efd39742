import { useQuery } from '@tanstack/react-query';
import { accountsApi } from '../../features/accounts/api.ts';
import type { User } from './types.ts';

/** The query key of the current user; the login, logout and register actions write to it. */
export const currentUserKey = accountsApi.currentUserKey;

/**
 * The signed-in user (spec part 1 §4, §7): `undefined` while loading, `null` when anonymous
 * (GET /api/user answered 401).
 */
export function useCurrentUser() {
  return useQuery<User | null>({
    queryKey: currentUserKey,
    queryFn: accountsApi.currentUser,
  });
}
