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
 * A view-only (secondary) login reads its student's account and may not change it: the server
 * answers 403 to its PATCH /api/user/timezone, so its zone is shown, never synced.
 */
export function canChangeTimezone(user: Pick<User, 'role' | 'viewOnly'>): boolean {
  return !user.viewOnly && user.role !== 'student_secondary';
}

/**
 * Automatic time-zone sync (spec part 1 §4): when the stored zone differs from the browser's,
 * PATCH /api/user/timezone and update the cached user. Failures are only logged. Skipped for a
 * view-only login (see canChangeTimezone) and for a zone the person chose (issue 24: the "Time
 * zone" card), which the browser's zone must not replace.
 */
export async function syncTimezone(user: User, queryClient: QueryClient): Promise<void> {
  checkedUsers.add(user.id);
  if (!canChangeTimezone(user) || user.timezoneChosen) return;
  const timezone = browserTimezone();
  if (!timezone || user.timezone === timezone) return;
  try {
    // The answer is the zone in force: a zone chosen in another tab meanwhile stays.
    const answer = await accountsApi.changeTimezone(timezone);
    queryClient.setQueryData<User | null>(currentUserKey, (current) =>
      current && current.id === user.id ? { ...current, timezone: answer.timezone, timezoneChosen: answer.chosen } : current,
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
