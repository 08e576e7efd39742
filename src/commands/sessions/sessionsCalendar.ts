import type { TutorCalendar } from '../../adapters/calendar/calendarPort.ts';
import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { parseMailbox } from '../../domain/kit/iCalendar.ts';
import { FEED_DAYS_AHEAD, FEED_DAYS_BACK, type FeedEntry, feedCalendar } from '../../domain/sessions/calendarFeed.ts';
import { sessionStreamId } from '../../domain/sessions/session.ts';
import { SESSION_NOT_FOUND } from '../../domain/sessions/sessionDecider.ts';
import { calendarSequence, type SessionStreamEvent } from '../../domain/sessions/sessionNotices.ts';
import { calendarSyncSummary, feedOf, feedOwner, feedSessions, findSession } from '../../projections/sessions/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { FEED_TOKEN, feedTokenHash, issueCalendarFeedToken } from './calendarFeed.ts';
import { resyncTutorCalendar, sendSessionInvite } from './sessionCalendarSync.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the sessions' calendar part needs: the sessions module's own dependencies, the tutor's calendar and the site's addresses. */
export interface SessionsCalendarDeps {
  sql: Sql;
  store: EventStore;
  clock: Clock;
  /** The tutor's calendar, watched for lost access (the tutors feature's). */
  tutorCalendar(tutorId: string): Promise<TutorCalendar>;
  /** The site's public URL: a feed's link points there. */
  publicUrl: string;
  /** The mail sender: a feed's events are organised by it. */
  mailFrom: string;
}

/**
 * The calendar side of sessions (spec part 2 §7, issue 22 §3): the tutor's sync card (how many
 * upcoming sessions are in their calendar, "sync now"), the invitation sent again, and the
 * personal calendar feed (its link, made or reset, and the feed itself by its token). Part of
 * the sessions module (`system.sessions.calendar`).
 */
export function sessionsCalendar(deps: SessionsCalendarDeps) {
  const { sql, store, clock } = deps;
  const syncDeps = { sql, store, clock, openCalendar: deps.tutorCalendar };
  const feedUrl = (token: string) => `${deps.publicUrl.replace(/\/+$/, '')}/calendar/${token}.ics`;

  return {
    /** How many of the tutor's upcoming sessions are in their calendar, pending or failed, and the last write. */
    syncStatus: (tutorId: string) => calendarSyncSummary(sql, tutorId, clock.now()),

    /** Brings the tutor's calendar in step with their upcoming sessions now. */
    async resync(tutorId: string) {
      const { updatedSessions, errors } = await resyncTutorCalendar(syncDeps, tutorId);
      return { success: errors.length === 0, updatedSessions, errors };
    },

    /** The session as the read model shows it (404 when unknown): the party the route checks. */
    async session(sessionId: string) {
      const session = await findSession(sql, sessionId);
      if (!session) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
      return session;
    },

    /** Sends the invitation with the Meet link again; answers the link. */
    sendInvite: (sessionId: string, ctx: CommandContext) => sendSessionInvite(syncDeps, sessionId, ctx.commandId),

    /**
     * The feed of token `token` (an iCalendar text), or null for a malformed or unknown one (reset,
     * deleted account). The look-up is by the token's hash: nothing compares the secret itself.
     */
    async feed(token: string | undefined): Promise<string | null> {
      const userId = token && FEED_TOKEN.test(token) ? await feedOwner(sql, feedTokenHash(token)) : null;
      if (!userId) return null;
      const now = clock.now().getTime();
      const sessions = await feedSessions(sql, userId, new Date(now - FEED_DAYS_BACK * DAY_MS), new Date(now + FEED_DAYS_AHEAD * DAY_MS));
      const entries = await Promise.all(
        sessions.map(async (s): Promise<FeedEntry> => {
          // SEQUENCE and DTSTAMP as the notices compute them: from the session's stream.
          const stream = (await store.readStream(sessionStreamId(s.id))) as unknown as SessionStreamEvent[];
          const last = stream[stream.length - 1];
          return {
            sessionId: s.id,
            subjectName: s.subjectName,
            start: s.start,
            end: s.end,
            cancelled: s.status === 'cancelled',
            meetingLink: s.meetingLink,
            withName: s.withName,
            sequence: calendarSequence(stream),
            stamp: (last?.recordedAt ?? new Date(now)).toISOString(),
          };
        }),
      );
      return feedCalendar(entries, parseMailbox(deps.mailFrom));
    },

    /** Whether the user has a feed link, and since when. */
    async feedStatus(userId: string) {
      const feed = await feedOf(sql, userId);
      return { active: feed !== null, issuedAt: feed?.issuedAt ?? null };
    },

    /** A new feed link (the first, or a reset: the old one stops working at once); the token is shown once, never kept. */
    issueFeed: (userId: string, ctx: CommandContext) => issueCalendarFeedToken(store, userId, ctx),

    /** The link of a token just issued (after its read-your-writes), with when it was issued. */
    async feedLink(userId: string, token: string) {
      const feed = await feedOf(sql, userId);
      return { url: feedUrl(token), issuedAt: feed?.issuedAt ?? clock.now().toISOString() };
    },
  };
}

export type SessionsCalendar = ReturnType<typeof sessionsCalendar>;
