import { CalendarError } from '../../adapters/calendar/calendarPort.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { type TutorCalendarDeps, writeWeeklyHours } from '../../commands/tutors/tutorCalendar.ts';
import { reactor } from '../kit/reactor.ts';

export const TUTOR_HOURS_QUEUE = 'tutor-calendar-hours';

/** Ids only: the worker reads the hours from the tutor stream. */
interface TutorHoursJob {
  tutorId: string;
  eventId: string;
}

/** Every `TutorWeeklyHoursSet` becomes one job writing the hours to the tutor's calendar. */
export const tutorHoursReactor = reactor({
  name: 'tutor_hours_saga',
  handles: ['TutorWeeklyHoursSet'],
  jobsFor: (event) => [
    {
      queue: TUTOR_HOURS_QUEUE,
      id: deterministicUuid(`${event.id}/tutor-hours`),
      data: { tutorId: event.data.tutorId, eventId: event.id } satisfies TutorHoursJob,
    },
  ],
});

/** Failures a retry cannot mend: the tutor must act (authorise again, share the calendar); the access-lost alert says so. */
const needsTheTutor = (error: unknown) =>
  error instanceof CalendarError && (error.needsReauthorisation || error.reason === 'not_connected' || error.reason === 'forbidden');

/**
 * Writes the hours of one `TutorWeeklyHoursSet` to the tutor's calendar (`writeWeeklyHours`); safe
 * to retry. Failures only the tutor can mend end the job: the lost access is recorded and alerted.
 */
export async function writeTutorHours(deps: TutorCalendarDeps, job: TutorHoursJob): Promise<void> {
  try {
    await writeWeeklyHours(deps, job.tutorId, job.eventId);
  } catch (error) {
    if (needsTheTutor(error)) return;
    throw error;
  }
}

export async function workTutorHours(queue: JobQueue, deps: TutorCalendarDeps): Promise<void> {
  await queue.work<TutorHoursJob>(TUTOR_HOURS_QUEUE, (job) => writeTutorHours(deps, job), { keyOf: (job) => job.tutorId });
}
