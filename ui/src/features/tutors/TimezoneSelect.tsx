import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { serverMessage } from '../../app/api.ts';
import type { User } from '../../app/auth/types.ts';
import { currentUserKey } from '../../app/auth/useCurrentUser.ts';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { PendingButton } from '../../components/parts.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { selectableTimezones } from '../../lib/timezones.ts';
import { tutorsApi } from './api.ts';

/** The selectable zones, plus `current` when it is another IANA zone (e.g. the browser's). */
export function TimezoneOptions({ current }: { current: string }) {
  const listed = selectableTimezones.some((z) => z.value === current);
  return (
    <>
      {listed ? null : <option value={current}>{current}</option>}
      {selectableTimezones.map((z) => (
        <option key={z.value} value={z.value}>
          {z.label} ({z.value})
        </option>
      ))}
    </>
  );
}

/** The account's time zone (PATCH /api/user/timezone; failure "Failed to update timezone"). */
export function TimezoneSelect({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [zone, setZone] = useState(user.timezone);
  const save = useMutation({
    mutationFn: () => tutorsApi.changeTimezone(zone),
    onSuccess: async ({ timezone }) => {
      queryClient.setQueryData<User | null>(currentUserKey, (u) => (u ? { ...u, timezone } : u));
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
      toast({ title: 'Time zone updated', variant: 'success' });
    },
    onError: (e) =>
      toast({ title: 'Failed to update timezone', description: serverMessage(e, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <form
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="grid flex-1 gap-1.5">
        <label htmlFor={`${id}-zone`} className="text-sm font-medium">
          Time zone
        </label>
        <select id={`${id}-zone`} className={selectClasses} value={zone} onChange={(e) => setZone(e.target.value)}>
          <TimezoneOptions current={zone} />
        </select>
      </div>
      <PendingButton
        type="submit"
        pending={save.isPending}
        disabled={zone === user.timezone}
        label="Save time zone"
        pendingLabel="Saving..."
      />
    </form>
  );
}
