import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, MonitorSmartphone, Save } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { browserTimezone } from '../../app/auth/timezoneSync.ts';
import type { User } from '../../app/auth/types.ts';
import { currentUserKey } from '../../app/auth/useCurrentUser.ts';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { selectableTimezones, timezoneLabel } from '../../lib/timezones.ts';
import { accountsApi } from './api.ts';

type Mode = 'chosen' | 'device';

/**
 * "Time zone" (issue 24): the zone every time on the page is shown in. It follows the browser at
 * each sign-in until the person chooses one here; "Use this device's time zone" goes back to that.
 * Saving updates the cached current user, so every time on the page re-renders in the new zone.
 */
export function TimeZoneCard({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const [selected, setSelected] = useState(user.timezone);
  useEffect(() => setSelected(user.timezone), [user.timezone]);
  const device = browserTimezone();
  const options = selectableTimezones.some((z) => z.value === user.timezone)
    ? selectableTimezones
    : [{ value: user.timezone, label: user.timezone }, ...selectableTimezones];
  const save = useMutation({
    mutationFn: ({ timezone, mode }: { timezone: string; mode: Mode }) => accountsApi.changeTimezone(timezone, mode),
    onSuccess: (answer, { mode }) => {
      queryClient.setQueryData<User | null>(currentUserKey, (current) =>
        current && current.id === user.id ? { ...current, timezone: answer.timezone, timezoneChosen: answer.chosen } : current,
      );
      setSelected(answer.timezone);
      toast({
        title: mode === 'chosen' ? 'Time zone saved' : "Following this device's time zone",
        description: `Times are now shown in ${timezoneLabel(answer.timezone)} time.`,
        variant: 'success',
      });
    },
    onError: (error) =>
      toast({ title: 'Could not change your time zone', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const unchanged = selected === user.timezone && user.timezoneChosen;
  return (
    <section
      aria-labelledby="time-zone-heading"
      className="mt-8 rounded-[var(--radius-card)] border border-border bg-white p-6 shadow-sm"
      data-testid="time-zone-card"
    >
      <h2 id="time-zone-heading" className="text-base font-semibold text-slate-900">
        Time zone
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="time-zone-in-force">
        Times are shown in {timezoneLabel(user.timezone)} time
        {user.timezoneChosen ? ', the zone you chose.' : ", this device's time zone, updated each time you sign in."}
      </p>
      <form
        className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ timezone: selected, mode: 'chosen' });
        }}
      >
        <div className="flex-1">
          <label htmlFor={selectId} className="text-sm font-medium text-slate-900">
            Show times in
          </label>
          <select
            id={selectId}
            className={`mt-1.5 ${selectClasses}`}
            value={selected}
            disabled={save.isPending}
            onChange={(event) => setSelected(event.target.value)}
          >
            {options.map((z) => (
              <option key={z.value} value={z.value}>
                {z.label === z.value ? z.value : `${z.label} (${z.value})`}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={save.isPending || unchanged}>
          {save.isPending && save.variables?.mode === 'chosen' ? (
            <Loader2 aria-hidden="true" className="animate-spin" />
          ) : (
            <Save aria-hidden="true" />
          )}
          Save time zone
        </Button>
      </form>
      {user.timezoneChosen && device ? (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="mt-2 px-0"
          disabled={save.isPending}
          onClick={() => save.mutate({ timezone: device, mode: 'device' })}
        >
          {save.isPending && save.variables?.mode === 'device' ? (
            <Loader2 aria-hidden="true" className="animate-spin" />
          ) : (
            <MonitorSmartphone aria-hidden="true" />
          )}
          Use this device's time zone ({timezoneLabel(device)})
        </Button>
      ) : null}
    </section>
  );
}
