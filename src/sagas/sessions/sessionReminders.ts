import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue, JobRequest } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { sessionHandlers } from '../../commands/sessions/sessionHandlers.ts';
import { sessionPeople } from '../../commands/sessions/sessionPeople.ts';
import type { Reactor } from '../kit/reactor.ts';

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
export const sessionReminderReactor: Reactor = {
  name: 'session_reminders',
  handles: ['SessionBooked', 'SessionRescheduled'],
  jobsFor(event: RecordedEvent): JobRequest[] {
    const { sessionId, start } = event.data as { sessionId: string; start: string };
    const decidedAt = event.recordedAt.getTime();
    return REMINDERS.flatMap(({ kind, hoursBefore }) => {
      const at = Date.parse(start) - hoursBefore * 3_600_000;
      if (!(at > decidedAt)) return [];
      const job: ReminderJob = { sessionId, start, kind };
      return [{ queue: SESSION_REMINDER_QUEUE, id: reminderId(job), data: { ...job }, startAfter: new Date(at) }];
    });
  },
};

export interface SessionReminderDeps {
  sql: Sql;
  store: EventStore;
  mailer: Mailer;
}

/** "Tuesday, December 1, 2026 at 3:00 PM EST", in the reader's zone. */
export function sessionTimeIn(start: string, timeZone: string): string {
  return (
    new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'full', timeStyle: 'short' }).format(new Date(start)) +
    ` (${shortZone(start, timeZone)})`
  );
}
const shortZone = (start: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    .formatToParts(new Date(start))
    .find((p) => p.type === 'timeZoneName')?.value ?? timeZone;

/** Sends one reminder if the session is still booked at that start; a retry sends nothing twice (mail ids). */
export async function sendSessionReminder(deps: SessionReminderDeps, job: ReminderJob): Promise<'sent' | 'moved' | 'gone'> {
  const state = await sessionHandlers(deps.store).sessions.load(job.sessionId);
  if (!state.booked || state.status !== 'scheduled') return 'gone';
  if (state.start !== job.start) return 'moved';
  const booked = state.booked;
  const { family: holder, tutor } = await sessionPeople(deps.sql, booked);
  const family = holder ? [holder] : [];
  const when = job.kind === 'day' ? 'tomorrow' : 'in one hour';
  const mails = [
    ...family.map((person) => ({
      person,
      zone: person.timezone ?? booked.studentTimeZone,
      lines: [`This is a reminder that the ${booked.subjectName} session starts ${when}.`],
    })),
    ...(tutor
      ? [
          {
            person: tutor,
            zone: tutor.timezone ?? booked.tutorTimeZone,
            lines: [`This is a reminder that you teach a ${booked.subjectName} session ${when}.`],
          },
        ]
      : []),
  ];
  for (const { person, zone, lines } of mails) {
    await deps.mailer.send({
      id: deterministicUuid(`${reminderId(job)}/${person.id}`),
      dataSubject: `user-${person.id}`,
      to: person.email,
      subject: job.kind === 'day' ? 'Reminder: your Topmark session is tomorrow' : 'Reminder: your Topmark session starts in one hour',
      text: [
        `Hi ${person.first_name},`,
        '',
        ...lines,
        '',
        `When: ${sessionTimeIn(job.start, zone)}`,
        `Length: ${booked.durationMinutes} minutes, online`,
        '',
        'The Google Meet link is on your dashboard and in the calendar invitation.',
        'Need to change it? Reschedule or cancel from your dashboard; cancelling less than 12 hours before the start uses the session.',
        '',
        '— The Topmark team',
      ].join('\n'),
    });
  }
  return 'sent';
}

export async function workSessionReminders(queue: JobQueue, deps: SessionReminderDeps): Promise<void> {
  await queue.work<ReminderJob>(SESSION_REMINDER_QUEUE, async (job) => {
    await sendSessionReminder(deps, job);
  });
}
