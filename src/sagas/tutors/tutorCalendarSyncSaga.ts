import type { JobQueue, QueueDefinition } from '../../adapters/jobs/jobQueue.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import {
  type CalendarSyncDeps,
  calendarSyncJob,
  sweepCalendarWatches,
  syncTutorCalendar,
  TUTOR_CALENDAR_SYNC_QUEUE,
  type TutorCalendarSyncJob,
} from '../../commands/tutors/calendarSync.ts';
import { reactor } from '../kit/reactor.ts';

export { TUTOR_CALENDAR_SYNC_QUEUE } from '../../commands/tutors/calendarSync.ts';
/** Every 5 minutes (spec part 2 §9, as the sessions' calendar resync): a sync job for every watched tutor, which also renews channels. */
export const TUTOR_CALENDAR_SWEEP_QUEUE = 'tutor-calendar-sync-sweep';
export const CALENDAR_SWEEP_CRON = '*/5 * * * *';

export const tutorCalendarSyncQueues: QueueDefinition[] = [
  // Per tutor one job queued and one running, whatever the number of pushes; outages retried with backoff.
  { name: TUTOR_CALENDAR_SYNC_QUEUE, retryLimit: 4, retryDelaySeconds: 5, policy: 'stately' },
  { name: TUTOR_CALENDAR_SWEEP_QUEUE, retryLimit: 0 },
];

/**
 * When a tutor's calendar may have become usable, or stopped being so, their watch is brought up to
 * date: a profile created, onboarding completed (the calendar was reachable), Google tokens linked
 * (sign-in, also the re-authorisation after a refused grant), access restored, the account deleted
 * (the watch is dropped). Replayed from the start of the log on its first run, so tutors approved
 * before it existed are watched too.
 */
export const tutorCalendarWatchReactor = reactor({
  name: 'tutor_calendar_watch',
  handles: ['TutorProfileCreated', 'TutorOnboardingCompleted', 'TutorCalendarAccessRestored', 'GoogleAccountLinked', 'AccountDeleted'],
  jobsFor: (event) => {
    // A tutor's id is their user id: user events name the tutor too (the job finds no tutor for other accounts).
    const tutorId = 'tutorId' in event.data ? event.data.tutorId : event.data.userId;
    return tutorId ? [calendarSyncJob(tutorId, deterministicUuid(`${event.id}/tutor-calendar-sync`))] : [];
  },
});

export interface CalendarSyncWorkerDeps extends CalendarSyncDeps {
  log: { warn(detail: Record<string, unknown>, message: string): void };
}

export async function workTutorCalendarSync(queue: JobQueue, deps: CalendarSyncWorkerDeps): Promise<void> {
  if (deps.calendar.kind === 'google' && !deps.pushAddress) {
    deps.log.warn(
      {},
      'Google Calendar push notifications are off: PUBLIC_URL is not an https address Google can deliver to; changes tutors make in Google are noticed by the 5-minute sync',
    );
  }
  await queue.work<TutorCalendarSyncJob>(
    TUTOR_CALENDAR_SYNC_QUEUE,
    async (job) => {
      await syncTutorCalendar(deps, job.tutorId);
    },
    { keyOf: (job) => job.tutorId },
  );
  await queue.boss.schedule(TUTOR_CALENDAR_SWEEP_QUEUE, CALENDAR_SWEEP_CRON);
  await queue.work(TUTOR_CALENDAR_SWEEP_QUEUE, () => sweepCalendarWatches({ sql: deps.sql, jobs: queue }).then(() => {}), { batchSize: 1 });
}
