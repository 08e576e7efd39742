import type { Sql } from '../db/db.ts';
import type { CalendarPort, CalendarTarget, TutorCalendar } from './calendarPort.ts';

/**
 * How far each tutor's calendar has changed, shared by every process (`calendar_revisions`).
 * Whatever a process keeps of a calendar (busy-time snapshots) is valid only at the revision it
 * was read at; reading the revision is one primary-key look-up, reading the calendar is not.
 */
export interface CalendarRevisions {
  /** The calendar's current revision (0 when it never changed through Topmark). */
  of(ownerId: string): Promise<number>;
  /** Records a change (after it was made, so a reader that sees the new revision sees the change). */
  changed(ownerId: string): Promise<void>;
}

export function calendarRevisions(sql: Sql): CalendarRevisions {
  return {
    async of(ownerId) {
      const [row] = await sql<{ revision: string }[]>`SELECT revision FROM calendar_revisions WHERE owner_id = ${ownerId}`;
      return row ? Number(row.revision) : 0;
    },
    async changed(ownerId) {
      await sql`
        INSERT INTO calendar_revisions AS r (owner_id) VALUES (${ownerId})
        ON CONFLICT (owner_id) DO UPDATE SET revision = r.revision + 1, changed_at = now()`;
    },
  };
}

/**
 * The calendar port with every write recorded in `calendar_revisions`. A write that fails may
 * still have reached the provider, so the revision is raised either way.
 */
export function withCalendarRevisions(port: CalendarPort, revisions: CalendarRevisions): CalendarPort {
  const recorded =
    <Args extends unknown[], R>(ownerId: string, write: (...args: Args) => Promise<R>) =>
    async (...args: Args): Promise<R> => {
      try {
        return await write(...args);
      } finally {
        await revisions.changed(ownerId);
      }
    };
  return {
    kind: port.kind,
    serviceAccountEmail: port.serviceAccountEmail,
    calendar(target: CalendarTarget): TutorCalendar {
      const inner = port.calendar(target);
      return {
        // Watching and listing changes write no event.
        watching: inner.watching ?? null,
        status: () => inner.status(),
        listEvents: (options) => inner.listEvents(options),
        freeBusy: (window) => inner.freeBusy(window),
        getEvent: (id) => inner.getEvent(id),
        createEvent: recorded(target.ownerId, inner.createEvent.bind(inner)),
        updateEvent: recorded(target.ownerId, inner.updateEvent.bind(inner)),
        deleteEvent: recorded(target.ownerId, inner.deleteEvent.bind(inner)),
      };
    },
  };
}
