import { z } from 'zod';
import { type Command, type Decider, decideWith } from '../kit/decider.ts';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';
import { type ICalAddress, iCalendar } from '../kit/iCalendar.ts';
import { sessionUid } from './sessionNotices.ts';

/**
 * A person's private calendar feed (`/calendar/<token>.ics`, issue 22 §3). The token is a random
 * secret made by the command layer; only its SHA-256 is recorded, so neither the log nor a read
 * model can give a feed away. Issuing again is the reset: the new hash replaces the old at once.
 */
export const calendarFeedTokenIssued = z.object({
  userId: z.string(),
  /** SHA-256 of the token, hex: the token itself is never stored. */
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** True when it replaced an earlier token (the old link stops working). */
  reset: z.boolean(),
  issuedAt: z.string(),
});

export const calendarFeedEvents = {
  CalendarFeedTokenIssued: eventType(calendarFeedTokenIssued, {
    describe: (d) => (d.reset ? 'Calendar feed link reset' : 'Calendar feed link created'),
  }),
};

export type CalendarFeedEvent = EventsOf<typeof calendarFeedEvents>;

export interface CalendarFeedState {
  tokenHash: string | null;
}

export const initialCalendarFeedState: CalendarFeedState = { tokenHash: null };

export function evolveCalendarFeed(_state: CalendarFeedState, event: CalendarFeedEvent): CalendarFeedState {
  return { tokenHash: event.data.tokenHash };
}

export const calendarFeedStreamId = (userId: string) => `calendarFeed-${userId}`;

export type CalendarFeedCommand = Command<'IssueCalendarFeedToken', { userId: string; tokenHash: string }>;

export const decideCalendarFeed = decideWith<CalendarFeedCommand, CalendarFeedEvent, CalendarFeedState>({
  IssueCalendarFeedToken({ data, metadata: { now } }, state) {
    if (state.tokenHash === data.tokenHash) return [];
    return [
      {
        type: 'CalendarFeedTokenIssued',
        data: { userId: data.userId, tokenHash: data.tokenHash, reset: state.tokenHash !== null, issuedAt: now.toISOString() },
      },
    ];
  },
});

export const calendarFeedDecider: Decider<CalendarFeedCommand, CalendarFeedEvent, CalendarFeedState> = {
  initialState: initialCalendarFeedState,
  evolve: evolveCalendarFeed,
  decide: decideCalendarFeed,
};

/** The feed's days around today: recent sessions stay visible, upcoming ones a season ahead. */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 90;

/** One session as a feed lists it, with its SEQUENCE and DTSTAMP from its stream (as the notices compute them). */
export interface FeedEntry {
  sessionId: string;
  subjectName: string;
  start: string;
  end: string;
  cancelled: boolean;
  meetingLink: string | null;
  /** Whom the reader meets (their name, as the notices give it). */
  withName: string;
  sequence: number;
  stamp: string;
}

/** A link safe to write as a URI value: https, printable ASCII only (nothing can break the line). */
const SAFE_LINK = /^https:\/\/[!-~]{1,500}$/;

/**
 * The feed as a calendar file (no iTIP method: a subscription, RFC 5545 §3.7.2): one event per
 * session with the same UID, SEQUENCE and summary as the notices' files (`sessionUid`), so a session
 * added from a mail and from the feed is one event. Times in UTC; no attendee (nobody's address).
 */
export function feedCalendar(entries: readonly FeedEntry[], organizer: ICalAddress): string {
  return iCalendar({
    events: entries.map((e) => {
      const link = e.meetingLink && SAFE_LINK.test(e.meetingLink) ? e.meetingLink : null;
      return {
        uid: sessionUid(e.sessionId),
        sequence: e.sequence,
        stamp: e.stamp,
        start: e.start,
        end: e.end,
        summary: `Topmark: ${e.subjectName} with ${e.withName}`,
        description: [
          `Online ${e.subjectName} tutoring session on Topmark.`,
          link ? `Google Meet: ${link}` : 'The Google Meet link is on your Topmark dashboard.',
        ].join('\n'),
        location: 'Online (Google Meet)',
        ...(link ? { url: link } : {}),
        status: e.cancelled ? 'CANCELLED' : 'CONFIRMED',
        organizer,
        attendees: [],
      };
    }),
  });
}
