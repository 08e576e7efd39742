import { CalendarError, type TutorCalendar } from '../../adapters/calendar/calendarPort.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import {
  hoursSeriesOf,
  latestWeeklyHours,
  openTutorCalendar,
  type TutorCalendarDeps,
  writtenHoursSeries,
} from '../../commands/tutors/tutorCalendar.ts';
import type { Reactor } from '../kit/reactor.ts';

export const TUTOR_HOURS_QUEUE = 'tutor-calendar-hours';

/** Ids only: the worker reads the hours from the tutor stream. */
interface TutorHoursJob {
  tutorId: string;
  eventId: string;
}

/** Every `TutorWeeklyHoursSet` becomes one job writing the hours to the tutor's calendar. */
export const tutorHoursReactor: Reactor = {
  name: 'tutor_hours_saga',
  handles: ['TutorWeeklyHoursSet'],
  jobsFor: (event) => [
    {
      queue: TUTOR_HOURS_QUEUE,
      id: deterministicUuid(`${event.id}/tutor-hours`),
      data: { tutorId: (event.data as { tutorId: string }).tutorId, eventId: event.id } satisfies TutorHoursJob,
    },
  ],
};

/** Failures a retry cannot mend: the tutor must act (authorise again, share the calendar); the access-lost alert says so. */
const needsTheTutor = (error: unknown) =>
  error instanceof CalendarError && (error.needsReauthorisation || error.reason === 'not_connected' || error.reason === 'forbidden');

async function deleteAll(calendar: TutorCalendar, ids: readonly string[]) {
  for (const id of ids) await calendar.deleteEvent(id);
}

/**
 * Writes the hours of one `TutorWeeklyHoursSet` as recurring "Topmark Hours" events (transparent,
 * marked with Topmark's private property), then deletes the series Topmark wrote before. Safe to
 * retry: the series' ids derive from the event, and a create under an existing id answers the
 * event already made. Hours superseded by a later event are not written (that event's job writes
 * its own); a job overtaken while it wrote takes its series back out.
 */
export async function writeTutorHours(deps: TutorCalendarDeps, job: TutorHoursJob): Promise<void> {
  const latest = await latestWeeklyHours(deps.store, job.tutorId);
  if (!latest || latest.eventId !== job.eventId) return;
  const { calendar } = await openTutorCalendar(deps, job.tutorId);
  const series = hoursSeriesOf(latest);
  const ids = new Set(series.map((s) => s.id));
  try {
    for (const { id, input } of series) {
      try {
        await calendar.createEvent(id, input);
      } catch (error) {
        // Deleted since (by a later job that overtook this one): not ours to bring back.
        if (!(error instanceof CalendarError && error.reason === 'conflict')) throw error;
      }
    }
    const previous = (await writtenHoursSeries(calendar)).filter((e) => !ids.has(e.id));
    await deleteAll(
      calendar,
      previous.map((e) => e.id),
    );
    const after = await latestWeeklyHours(deps.store, job.tutorId);
    if (after?.eventId !== job.eventId) await deleteAll(calendar, [...ids]);
  } catch (error) {
    // Retrying cannot help until the tutor acts; the lost access is recorded (and alerted) by openTutorCalendar.
    if (needsTheTutor(error)) return;
    throw error;
  }
}

export async function workTutorHours(queue: JobQueue, deps: TutorCalendarDeps): Promise<void> {
  await queue.work<TutorHoursJob>(TUTOR_HOURS_QUEUE, (job) => writeTutorHours(deps, job), { keyOf: (job) => job.tutorId });
}
