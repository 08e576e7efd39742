import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { accountsApi } from '../../features/accounts/api.ts';
import type { User } from './types.ts';
import { currentUserKey } from './useCurrentUser.ts';

/** The browser's IANA time zone, or null when the browser does not say. */
export function browserTimezone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Users whose zone was already checked during this page load (one PATCH per sign-in at most). */
const checkedUsers = new Set<string>();

/**
 * Automatic time-zone sync (spec part 1 §4): when the stored zone differs from the browser's,
 * PATCH /api/user/timezone and update the cached user. Failures are only logged.
 */
export async function syncTimezone(user: User, queryClient: QueryClient): Promise<void> {
  checkedUsers.add(user.id);
  const timezone = browserTimezone();
  if (!timezone || user.timezone === timezone) return;
  try {
    await accountsApi.changeTimezone(timezone);
    queryClient.setQueryData<User | null>(currentUserKey, (current) =>
      current && current.id === user.id ? { ...current, timezone } : current,
    );
  } catch (error) {
    console.warn('Time zone update failed', error);
  }
}

/**
 * Runs the sync once for a user who arrived already signed in (e.g. back from Google sign-in),
 * where no login action of this app ran.
 */
export function useTimezoneSync(user: User | null | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!user || checkedUsers.has(user.id)) return;
    void syncTimezone(user, queryClient);
  }, [user, queryClient]);
}
