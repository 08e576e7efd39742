import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { evolveSession, initialSessionState } from '../../domain/sessions/session.ts';
import { reminderFactsOf } from '../../domain/sessions/sessionNotices.ts';
import { reactor } from '../kit/reactor.ts';
import { mailSessionNotice, readSession, type SessionNoticeDeps } from './sessionNotices.ts';

export const SESSION_REMINDER_QUEUE = 'session-reminders';

/** Spec (issue 11 §7): a day and an hour before each session. */
export const REMINDERS = [
  { kind: 'day', hoursBefore: 24 },
  { kind: 'hour', hoursBefore: 1 },
] as const;
export type ReminderKind = (typeof REMINDERS)[number]['kind'];

export interface ReminderJob {
  sessionId: string;
  /** The start this reminder is for: a moved session has new reminders, and this one finds it moved. */
  start: string;
  kind: ReminderKind;
}

/** The id of one reminder of one start: a replayed event or a retried job never mails twice. */
export const reminderId = (job: ReminderJob) => deterministicUuid(`session-reminder/${job.sessionId}/${job.start}/${job.kind}`);

/**
 * Books the reminders of a start when it is booked or moved: each waits in the queue until its
 * time. A reminder whose time has passed when the session is booked (booked tonight for tomorrow
 * morning) is not sent. Cancelled or moved sessions need no clean-up: the job reads the session
 * when it runs and drops itself.
 */
export const sessionReminderReactor = reactor({
  name: 'session_reminders',
  handles: ['SessionBooked', 'SessionRescheduled'],
  jobsFor(event) {
    const { sessionId, start } = event.data;
    const decidedAt = event.recordedAt.getTime();
    return REMINDERS.flatMap(({ kind, hoursBefore }) => {
      const at = Date.parse(start) - hoursBefore * 3_600_000;
      if (!(at > decidedAt)) return [];
      const job: ReminderJob = { sessionId, start, kind };
      return [{ queue: SESSION_REMINDER_QUEUE, id: reminderId(job), data: { ...job }, startAfter: new Date(at) }];
    });
  },
});

export type SessionReminderDeps = SessionNoticeDeps;

export { sessionTimeIn } from '../../domain/sessions/sessionNotices.ts';

/**
 * Sends one reminder if the session is still booked at that start, to the family and the tutor
 * (as every session notice, with the calendar file of the session as it is); a retry sends nothing
 * twice (mail ids from the reminder and the recipient).
 */
export async function sendSessionReminder(deps: SessionReminderDeps, job: ReminderJob): Promise<'sent' | 'moved' | 'gone'> {
  const stream = await readSession(deps.store, job.sessionId);
  const state = stream.reduce(evolveSession, initialSessionState);
  if (!state.booked || state.status !== 'scheduled') return 'gone';
  const facts = reminderFactsOf(stream, job.start, job.kind);
  if (!facts) return 'moved';
  await mailSessionNotice(deps, reminderId(job), facts);
  return 'sent';
}

export async function workSessionReminders(queue: JobQueue, deps: SessionReminderDeps): Promise<void> {
  await queue.work<ReminderJob>(SESSION_REMINDER_QUEUE, async (job) => {
    await sendSessionReminder(deps, job);
  });
}
