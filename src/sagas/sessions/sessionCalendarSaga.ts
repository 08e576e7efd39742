import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { resyncAllCalendars, type SessionCalendarDeps, syncSessionCalendar } from '../../commands/sessions/sessionCalendarSync.ts';
import { reactor } from '../kit/reactor.ts';

export const SESSION_CALENDAR_QUEUE = 'session-calendar';
export const SESSION_CALENDAR_RESYNC_QUEUE = 'session-calendar-resync';
/** Provider outages and rate limits are retried with pg-boss's backoff this many times, then recorded as failed. */
export const CALENDAR_RETRY_LIMIT = 6;
/** Spec part 2 §9: sessions auto-sync every 5 minutes. */
export const RESYNC_CRON = '*/5 * * * *';

interface SessionCalendarJob {
  sessionId: string;
  causationId: string;
}

/** Every change of a session's hour or existence, and every event lost from the calendar, becomes one job. */
export const sessionCalendarReactor = reactor({
  name: 'session_calendar_saga',
  handles: ['SessionBooked', 'SessionRescheduled', 'SessionCancelled', 'SessionCalendarEventLost'],
  jobsFor: (event) => [
    {
      queue: SESSION_CALENDAR_QUEUE,
      id: deterministicUuid(`${event.id}/session-calendar`),
      data: { sessionId: event.data.sessionId, causationId: event.id } satisfies SessionCalendarJob,
    },
  ],
});

export async function workSessionCalendar(queue: JobQueue, deps: SessionCalendarDeps): Promise<void> {
  await queue.work<SessionCalendarJob>(
    SESSION_CALENDAR_QUEUE,
    async (job, attempt) => {
      await syncSessionCalendar(deps, job.sessionId, { retryCount: attempt.retryCount, retryLimit: CALENDAR_RETRY_LIMIT });
    },
    { keyOf: (job) => job.sessionId },
  );
  await queue.boss.schedule(SESSION_CALENDAR_RESYNC_QUEUE, RESYNC_CRON);
  await queue.work(SESSION_CALENDAR_RESYNC_QUEUE, () => resyncAllCalendars(deps), { batchSize: 1 });
}
