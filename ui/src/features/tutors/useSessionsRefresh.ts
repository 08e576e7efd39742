import { useQueryClient } from '@tanstack/react-query';
import { tutorKeys } from './api.ts';

/** After a change to a session: the list, the sync card and the figures read it again. */
export function useSessionsRefresh(tutorId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: tutorKeys.sessions(tutorId) }),
      queryClient.invalidateQueries({ queryKey: tutorKeys.syncStatus(tutorId) }),
      queryClient.invalidateQueries({ queryKey: tutorKeys.stats }),
    ]);
}
