import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { mailsNotice } from '../../commands/notices/notices.ts';
import { sessionNames, sessionPeople } from '../../commands/sessions/sessionPeople.ts';
import { parseMailbox } from '../../domain/kit/iCalendar.ts';
import { optionalKindOfSessionNotice } from '../../domain/notices/notices.ts';
import { sessionStreamId } from '../../domain/sessions/session.ts';
import {
  type NoticeReader,
  noticeFactsAt,
  type SessionNoticeFacts,
  type SessionStreamEvent,
  sessionNoticeMail,
} from '../../domain/sessions/sessionNotices.ts';
import { reactor } from '../kit/reactor.ts';

export const SESSION_NOTICE_QUEUE = 'session-notices';

/**
 * A change older than this when the reactor meets it is history, not news: the reactor's first run
 * on an existing log (it starts at the log's beginning) mails nobody about last year's bookings.
 */
export const NOTICE_WINDOW_MS = 7 * 24 * 3_600_000;

const NOTICE_EVENTS = ['SessionBooked', 'SessionRescheduled', 'SessionCancelled', 'SessionCompleted'] as const;

export interface SessionNoticeJob {
  sessionId: string;
  /** The change this notice is about: an event of the session's stream. */
  eventId: string;
}

/** The job of one change: the same event replayed enqueues nothing new. */
export const noticeJobId = (eventId: string) => deterministicUuid(`${eventId}/session-notice`);

/** The mail of one notice to one person: a retried job, or a second worker running it, mails once. */
export const noticeMailId = (noticeKey: string, personId: string) => deterministicUuid(`${noticeKey}/${personId}`);

/** Each booking, move, cancellation and completion of a session becomes one job. */
export const sessionNoticeReactor = reactor({
  name: 'session_notices',
  handles: NOTICE_EVENTS,
  jobsFor(event) {
    if (Date.now() - event.recordedAt.getTime() > NOTICE_WINDOW_MS) return [];
    const job: SessionNoticeJob = { sessionId: event.data.sessionId, eventId: event.id };
    return [{ queue: SESSION_NOTICE_QUEUE, id: noticeJobId(event.id), data: { ...job } }];
  },
});

export interface SessionNoticeDeps {
  sql: Sql;
  store: EventStore;
  mailer: Mailer;
  /** The address mail is sent from (MAIL_FROM): the calendar files' organizer. */
  mailFrom: string;
  /** The site's origin: the notices link to the dashboard. */
  publicUrl?: string;
}

/** A session's events as its stream holds them. */
export async function readSession(store: EventStore, sessionId: string): Promise<SessionStreamEvent[]> {
  const events = await store.readStream(sessionStreamId(sessionId));
  return events.map((e) => ({ id: e.id, type: e.type, data: e.data, recordedAt: e.recordedAt }) as SessionStreamEvent);
}

const actorOf = (facts: SessionNoticeFacts): string | null => ('byId' in facts.change ? facts.change.byId : null);

/**
 * Mails one notice to the family (the account holder: the parent of a child's account, otherwise
 * the student) and to the tutor, each in their own zone with their own calendar file, unless the
 * reader turned this kind off in their notification settings. Every mail
 * id derives from `noticeKey` and the person, so sending again sends nothing twice.
 */
export async function mailSessionNotice(deps: SessionNoticeDeps, noticeKey: string, facts: SessionNoticeFacts): Promise<number> {
  const { booked } = facts;
  const people = await sessionPeople(deps.sql, booked);
  const { tutor } = people;
  // An erasure's cancellation is the tutor's news only: the family asked to be forgotten.
  const family = facts.change.kind === 'cancelled' && facts.change.byErasure ? null : people.family;
  const actorId = actorOf(facts);
  const names = await sessionNames(deps.sql, booked.studentId, actorId ? [actorId] : []);
  const noticeNames = { tutor: tutor ? `${tutor.first_name} ${tutor.last_name}` : null, ...names };
  const readers: NoticeReader[] = [
    ...(family
      ? [
          {
            id: family.id,
            email: family.email,
            firstName: family.first_name,
            side: 'family' as const,
            timeZone: family.timezone ?? booked.studentTimeZone,
          },
        ]
      : []),
    ...(tutor
      ? [
          {
            id: tutor.id,
            email: tutor.email,
            firstName: tutor.first_name,
            side: 'tutor' as const,
            timeZone: tutor.timezone ?? booked.tutorTimeZone,
          },
        ]
      : []),
  ];
  const options = {
    organizer: parseMailbox(deps.mailFrom),
    ...(deps.publicUrl ? { dashboardUrl: `${deps.publicUrl.replace(/\/+$/, '')}/dashboard` } : {}),
  };
  const kind = optionalKindOfSessionNotice(facts.change.kind);
  let sent = 0;
  for (const reader of readers) {
    // Read at send time from the reader's own stream: a notice they turned off is not mailed (their bell still lists it).
    if (!(await mailsNotice(deps.store, reader.id, kind))) continue;
    const mail = sessionNoticeMail(facts, reader, noticeNames, options);
    await deps.mailer.send({
      id: noticeMailId(noticeKey, reader.id),
      dataSubject: `user-${reader.id}`,
      to: reader.email,
      subject: mail.subject,
      text: mail.text,
      attachments: [mail.calendar],
    });
    sent += 1;
  }
  return sent;
}

/**
 * The notice of one change. The session's stream is read as it is now and the change found in it,
 * so the notice tells what that event did (a late job tells an older change, with the lower
 * SEQUENCE it had: a client that has seen a newer one keeps that).
 */
export async function sendSessionNotice(deps: SessionNoticeDeps, job: SessionNoticeJob): Promise<'sent' | 'unknown'> {
  const facts = noticeFactsAt(await readSession(deps.store, job.sessionId), job.eventId);
  if (!facts) return 'unknown';
  await mailSessionNotice(deps, `session-notice/${job.eventId}`, facts);
  return 'sent';
}

export async function workSessionNotices(queue: JobQueue, deps: SessionNoticeDeps): Promise<void> {
  await queue.work<SessionNoticeJob>(
    SESSION_NOTICE_QUEUE,
    async (job) => {
      await sendSessionNotice(deps, job);
    },
    // A session's notices go out in the order of its changes.
    { keyOf: (job) => job.sessionId },
  );
}
