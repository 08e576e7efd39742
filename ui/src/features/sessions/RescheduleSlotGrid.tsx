import type * as React from 'react';
import { Skeleton } from '../../components/parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { RESCHEDULE_DAYS_AHEAD, SLOT_PLACEHOLDERS, slotTime } from '../../lib/sessionFormat.ts';
import { cn } from '../../lib/utils.ts';

/** Spec part 2 §2 (the reschedule dialog's empty message). */
export const NO_SLOTS = 'No time slots available for this date (all slots have conflicts)';

/**
 * The reschedule dialog's start times for the chosen date (spec part 2 §2), the same for the
 * tutor and the student: a date out of range, 12 placeholders while loading, the fetch failure
 * with a retry, the empty message, or the grid of start buttons in the viewer's zone.
 */
export function RescheduleSlotGrid({
  date,
  validDate,
  slots,
  chosen,
  onChoose,
  zone,
}: {
  date: string;
  validDate: boolean;
  slots: { isPending: boolean; isError: boolean; data: { slots: { start: string }[] } | undefined; refetch: () => unknown };
  chosen: string | null;
  onChoose: (start: string) => void;
  zone: string;
}): React.ReactNode {
  if (date && !validDate) {
    return <p className="text-sm text-destructive-text">Choose a date from today to {RESCHEDULE_DAYS_AHEAD} days ahead.</p>;
  }
  if (!validDate) return null;
  if (slots.isPending) {
    return (
      <div
        role="status"
        aria-label="Loading available times"
        className="grid grid-cols-2 gap-2 sm:grid-cols-3"
        data-testid="slot-placeholders"
      >
        {Array.from({ length: SLOT_PLACEHOLDERS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders with no identity of their own
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  }
  if (slots.isError) {
    return (
      <div role="alert" className="grid gap-2 text-sm text-destructive-text">
        <p>Failed to fetch availability</p>
        <div>
          <Button variant="outline" size="sm" onClick={() => void slots.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  if (!slots.data) return null;
  if (slots.data.slots.length === 0) {
    return <p className="rounded-md border border-dashed border-border px-3 py-4 text-center text-sm text-slate-600">{NO_SLOTS}</p>;
  }
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium text-slate-900">Available start times</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {slots.data.slots.map(({ start }) => (
          <Button
            key={start}
            variant={chosen === start ? 'default' : 'outline'}
            aria-pressed={chosen === start}
            className={cn('w-full', chosen === start && 'ring-2 ring-brand-300')}
            onClick={() => onChoose(start)}
          >
            {slotTime(start, zone)}
          </Button>
        ))}
      </div>
    </fieldset>
  );
}
