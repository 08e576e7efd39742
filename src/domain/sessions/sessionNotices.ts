import { type ICalAddress, type ICalMethod, iCalendar } from '../kit/iCalendar.ts';
import {
  CANCELLATION_NOTICE_HOURS,
  type CreditPolicy,
  evolveSession,
  initialSessionState,
  type SessionBookedData,
  type SessionEvent,
  type SessionState,
} from './session.ts';

/**
 * The e-mails that tell the family and the tutor about a session (issue 22 §1): what happened, in
 * each reader's own zone, with a calendar file that adds, moves or removes the event in any mail
 * client. Pure: the saga reads the session's stream and the people, this decides the words.
 *
 * One UID per session (`session-<id>@topmark`) and a SEQUENCE that counts the changes of its time or
 * existence recorded on the session's stream up to the notice's event (each move, then the
 * cancellation): it only grows, so a client that has seen a later notice ignores an earlier one
 * arriving late.
 */

/** A session event as read from its stream. */
export type SessionStreamEvent = SessionEvent & { id: string; recordedAt: Date };

export type SessionChange =
  | { kind: 'booked'; byId: string; byRole: string }
  | { kind: 'rescheduled'; previousStart: string; byId: string; byRole: string }
  | {
      kind: 'cancelled';
      byId: string;
      byRole: string;
      reason: string;
      credit: 'released' | 'forfeited';
      creditPolicy?: CreditPolicy | undefined;
      noticeMinutes: number;
      /** The student's account was deleted: Topmark cancelled it, nobody gave a reason. */
      byErasure?: boolean | undefined;
    }
  | { kind: 'completed'; byId: string; report: string }
  | { kind: 'reminder'; when: 'day' | 'hour' };

export type SessionNoticeKind = SessionChange['kind'];

export interface SessionNoticeFacts {
  booked: SessionBookedData;
  /** The session's hour as the change left it (a cancelled session: the hour it had). */
  start: string;
  end: string;
  /** The calendar file's SEQUENCE (see above). */
  sequence: number;
  /** When the change was recorded: the calendar file's DTSTAMP. */
  stamp: string;
  change: SessionChange;
}

export const sessionUid = (sessionId: string) => `session-${sessionId}@topmark`;

/** Moves and the cancellation change the event in the readers' calendars; a completion does not. */
const changesCalendar = (event: SessionEvent) => event.type === 'SessionRescheduled' || event.type === 'SessionCancelled';

/** The SEQUENCE after these events of a session's stream (from its start). */
export const calendarSequence = (events: readonly SessionEvent[]) => events.filter(changesCalendar).length;

function changeOf(event: SessionEvent): SessionChange | null {
  switch (event.type) {
    case 'SessionBooked':
      return { kind: 'booked', byId: event.data.bookedBy, byRole: event.data.bookedByRole };
    case 'SessionRescheduled':
      return {
        kind: 'rescheduled',
        previousStart: event.data.previousStart,
        byId: event.data.rescheduledBy,
        byRole: event.data.rescheduledByRole,
      };
    case 'SessionCancelled':
      return {
        kind: 'cancelled',
        byId: event.data.cancelledBy,
        byRole: event.data.cancelledByRole,
        reason: event.data.reason,
        credit: event.data.credit,
        creditPolicy: event.data.creditPolicy,
        noticeMinutes: event.data.noticeMinutes,
        byErasure: event.data.byErasure,
      };
    case 'SessionCompleted':
      return { kind: 'completed', byId: event.data.completedBy, report: event.data.notes };
    default:
      return null;
  }
}

/** The notice of one event of a session's stream: the session as that event left it. Null when the stream holds no such event. */
export function noticeFactsAt(stream: readonly SessionStreamEvent[], eventId: string): SessionNoticeFacts | null {
  const at = stream.findIndex((e) => e.id === eventId);
  const event = stream[at];
  if (!event) return null;
  const upTo = stream.slice(0, at + 1);
  const state = upTo.reduce<SessionState>(evolveSession, initialSessionState);
  const change = changeOf(event);
  if (!state.booked || !change) return null;
  return {
    booked: state.booked,
    start: state.start ?? state.booked.start,
    end: state.end ?? state.booked.end,
    sequence: calendarSequence(upTo),
    stamp: event.recordedAt.toISOString(),
    change,
  };
}

/** A reminder's notice: the session as it is now, or null unless it is still booked at `start`. */
export function reminderFactsOf(stream: readonly SessionStreamEvent[], start: string, when: 'day' | 'hour'): SessionNoticeFacts | null {
  const state = stream.reduce<SessionState>(evolveSession, initialSessionState);
  const last = stream[stream.length - 1];
  if (!state.booked || !last || state.status !== 'scheduled' || state.start !== start) return null;
  return {
    booked: state.booked,
    start,
    end: state.end ?? state.booked.end,
    sequence: calendarSequence(stream),
    stamp: last.recordedAt.toISOString(),
    change: { kind: 'reminder', when },
  };
}

/** Who reads a notice: the family's account holder or the tutor, and the zone they read times in. */
export interface NoticeReader {
  id: string;
  email: string;
  firstName: string;
  side: 'family' | 'tutor';
  timeZone: string;
}

/** Names the words need: the tutor's and the student's, and those of the people who acted (by user id). */
export interface NoticeNames {
  tutor: string | null;
  student: string | null;
  people: ReadonlyMap<string, string>;
}

export interface NoticeAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface SessionNoticeMail {
  subject: string;
  text: string;
  calendar: NoticeAttachment;
}

export interface NoticeOptions {
  /** The calendar file's ORGANIZER: the no-reply address mail is sent from. */
  organizer: ICalAddress;
  /** Where the reader finds the session (the dashboard), if known. */
  dashboardUrl?: string;
}

/** "Tuesday, December 1, 2026 at 3:00 PM (EST)", in the reader's zone. */
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

/** "Tue, Dec 1, 3:00 PM EST": the subject line's short form, in the reader's zone. */
export const shortTimeIn = (start: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(start));

const NOTICE_MINUTES = CANCELLATION_NOTICE_HOURS * 60;

/** Who did it, as the reader reads it: "You", "Your tutor, Maya Okafor,", "A Topmark administrator", a name. */
function actor(byId: string, byRole: string, reader: NoticeReader, names: NoticeNames): string {
  if (byId === reader.id) return 'You';
  if (byRole === 'admin') return 'A Topmark administrator';
  if (byRole === 'tutor') return reader.side === 'family' ? `Your tutor, ${names.tutor ?? 'your tutor'},` : (names.tutor ?? 'The tutor');
  const name = names.people.get(byId);
  if (byRole === 'parent') return name ?? "The student's parent";
  if (byRole === 'student' || byRole === 'student_secondary') return name ?? 'The student';
  return 'Topmark';
}

/** The credit under the 12-hour rule, in plain words for each side. */
function creditWords(change: Extract<SessionChange, { kind: 'cancelled' }>, side: NoticeReader['side']): string {
  const timely = change.noticeMinutes > NOTICE_MINUTES;
  if (change.credit === 'forfeited') {
    return side === 'family'
      ? `It was cancelled ${CANCELLATION_NOTICE_HOURS} hours or less before the start, so under the ${CANCELLATION_NOTICE_HOURS}-hour rule the session counts as used: the credit does not come back.`
      : `It was cancelled ${CANCELLATION_NOTICE_HOURS} hours or less before the start, so under the ${CANCELLATION_NOTICE_HOURS}-hour rule the session counts as used, and it is paid to you like a session you taught.`;
  }
  if (timely) {
    return side === 'family'
      ? `It was cancelled more than ${CANCELLATION_NOTICE_HOURS} hours before the start, so the session credit is back in your course: you can book another session with it.`
      : `It was cancelled more than ${CANCELLATION_NOTICE_HOURS} hours before the start, so the family gets the session credit back.`;
  }
  return side === 'family'
    ? `It was cancelled ${CANCELLATION_NOTICE_HOURS} hours or less before the start, which would count the session as used, but Topmark gave the session credit back to your course: you can book another session with it.`
    : `It was cancelled ${CANCELLATION_NOTICE_HOURS} hours or less before the start, but Topmark gave the family the session credit back.`;
}

interface Words {
  subject: string;
  lines: string[];
}

/** "… the session with Maya Okafor", unless Maya Okafor is who did it. */
const withOther = (by: string, other: string) => (by.includes(other) ? '' : ` with ${other}`);

/** A completion: the report goes to the family; the tutor is told it went. */
function completionWords(
  facts: SessionNoticeFacts,
  change: Extract<SessionChange, { kind: 'completed' }>,
  reader: NoticeReader,
  names: NoticeNames,
  other: string,
): Words {
  const { subjectName, tutorId } = facts.booked;
  const when = sessionTimeIn(facts.start, reader.timeZone);
  const short = shortTimeIn(facts.start, reader.timeZone);
  const by = change.byId === reader.id ? 'You' : change.byId === tutorId ? (names.tutor ?? 'Your tutor') : 'Topmark';
  const done = `${by} marked the ${subjectName} session${withOther(by, other)} as completed.`;
  return reader.side === 'family'
    ? {
        subject: `Session report: ${subjectName}, ${short}`,
        lines: [done, '', `When: ${when}`, '', "Your tutor's report:", change.report.trim() || '(no report this time)'],
      }
    : {
        subject: `Session completed: ${subjectName}, ${short}`,
        lines: [done, '', `When: ${when}`, '', "Your report is on the family's dashboard and in their e-mail."],
      };
}

function wordsOf(facts: SessionNoticeFacts, reader: NoticeReader, names: NoticeNames): Words {
  const { booked, change } = facts;
  const zone = reader.timeZone;
  const subjectName = booked.subjectName;
  const family = reader.side === 'family';
  const other = family ? (names.tutor ?? 'your tutor') : (names.student ?? 'your student');
  const when = sessionTimeIn(facts.start, zone);
  const length = `Length: ${booked.durationMinutes} minutes, online`;
  switch (change.kind) {
    case 'booked': {
      const by = actor(change.byId, change.byRole, reader, names);
      const forStudent = !family && names.student && names.people.get(change.byId) !== names.student ? ` for ${names.student}` : '';
      return {
        subject: `Session booked: ${subjectName}, ${shortTimeIn(facts.start, zone)}`,
        lines: [
          family
            ? `${by} booked a ${subjectName} session${withOther(by, other)}.`
            : `${by} booked a ${subjectName} session with you${forStudent}.`,
          '',
          `When: ${when}`,
          length,
        ],
      };
    }
    case 'rescheduled': {
      const by = actor(change.byId, change.byRole, reader, names);
      return {
        subject: `Session moved: ${subjectName}, now ${shortTimeIn(facts.start, zone)}`,
        lines: [
          `${by} moved the ${subjectName} session${withOther(by, other)} to a new time.`,
          '',
          `Was: ${sessionTimeIn(change.previousStart, zone)}`,
          `Now: ${when}`,
          length,
        ],
      };
    }
    case 'cancelled': {
      if (change.byErasure) {
        return {
          subject: `Session cancelled: ${subjectName}, ${shortTimeIn(facts.start, zone)}`,
          lines: [
            `The ${subjectName} session was cancelled because the student's account was deleted.`,
            '',
            `When it was: ${when}`,
            '',
            'The hour is free again in your availability.',
          ],
        };
      }
      const by = actor(change.byId, change.byRole, reader, names);
      return {
        subject: `Session cancelled: ${subjectName}, ${shortTimeIn(facts.start, zone)}`,
        lines: [
          `${by} cancelled the ${subjectName} session${withOther(by, other)}.`,
          '',
          `When it was: ${when}`,
          ...(change.reason.trim() ? [`Reason given: ${change.reason.trim()}`] : []),
          '',
          creditWords(change, reader.side),
        ],
      };
    }
    case 'completed':
      return completionWords(facts, change, reader, names, other);
    case 'reminder': {
      const soon = change.when === 'day' ? 'tomorrow' : 'in one hour';
      return {
        subject: change.when === 'day' ? 'Reminder: your Topmark session is tomorrow' : 'Reminder: your Topmark session starts in one hour',
        lines: [
          family
            ? `This is a reminder that the ${subjectName} session starts ${soon}.`
            : `This is a reminder that you teach a ${subjectName} session ${soon}.`,
          '',
          `When: ${when}`,
          length,
        ],
      };
    }
  }
}

/** The calendar file's method: removed when cancelled, otherwise the event as it now is. */
export const methodOf = (change: SessionChange): ICalMethod => (change.kind === 'cancelled' ? 'CANCEL' : 'REQUEST');

/** The notice's calendar file for one reader: one event, the reader its only attendee. */
export function noticeCalendar(
  facts: SessionNoticeFacts,
  reader: NoticeReader,
  names: NoticeNames,
  options: NoticeOptions,
): NoticeAttachment {
  const method = methodOf(facts.change);
  const withWhom = reader.side === 'family' ? (names.tutor ?? 'your tutor') : (names.student ?? 'your student');
  const content = iCalendar({
    method,
    events: [
      {
        uid: sessionUid(facts.booked.sessionId),
        sequence: facts.sequence,
        stamp: facts.stamp,
        start: facts.start,
        end: facts.end,
        summary: `Topmark: ${facts.booked.subjectName} with ${withWhom}`,
        description: [
          `Online ${facts.booked.subjectName} tutoring session (${facts.booked.durationMinutes} minutes).`,
          'The Google Meet link is on your Topmark dashboard.',
          ...(options.dashboardUrl ? [options.dashboardUrl] : []),
        ].join('\n'),
        location: 'Online (Google Meet)',
        ...(options.dashboardUrl ? { url: options.dashboardUrl } : {}),
        status: method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED',
        organizer: options.organizer,
        attendees: [{ email: reader.email, name: reader.firstName }],
      },
    ],
  });
  return {
    filename: method === 'CANCEL' ? 'topmark-session-cancelled.ics' : 'topmark-session.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content,
  };
}

/** The whole e-mail of a notice to one reader. */
export function sessionNoticeMail(
  facts: SessionNoticeFacts,
  reader: NoticeReader,
  names: NoticeNames,
  options: NoticeOptions,
): SessionNoticeMail {
  const { subject, lines } = wordsOf(facts, reader, names);
  const kind = facts.change.kind;
  const stillOn = kind === 'booked' || kind === 'rescheduled' || kind === 'reminder';
  const calendarLine =
    kind === 'cancelled'
      ? 'The attached calendar file removes the session from your calendar.'
      : kind === 'rescheduled'
        ? 'The attached calendar file moves the session in your calendar.'
        : 'The attached calendar file adds the session to your calendar (or keeps it up to date).';
  const text = [
    `Hi ${reader.firstName},`,
    '',
    ...lines,
    '',
    ...(stillOn ? ['The Google Meet link is on your dashboard.'] : []),
    ...(stillOn && reader.side === 'family'
      ? [
          `Need to change it? Reschedule or cancel from your dashboard; cancelling ${CANCELLATION_NOTICE_HOURS} hours or less before the start uses the session.`,
        ]
      : []),
    calendarLine,
    '',
    '— The Topmark team',
  ].join('\n');
  return { subject, text, calendar: noticeCalendar(facts, reader, names, options) };
}
