import type { SessionStatus } from '../../domain/sessions/session.ts';
import type { CalendarSyncStatus } from '../../domain/sessions/sessionCalendar.ts';
import { int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/** Booked sessions (spec part 1 §3 `sessions`): one row per session, its current hour and status. */
export const sessions = table(
  'sessions',
  {
    id: text().primaryKey(),
    tutor_id: text(),
    student_id: text(),
    course_id: text(),
    subject_id: text(),
    subject_name: text(),
    start_at: timestamptz(),
    end_at: timestamptz(),
    duration: int(),
    status: text<SessionStatus>().default('scheduled'),
    /** The booking's notes (defaulted to "{subject} tutoring session"). */
    notes: text().nullable(),
    /** The tutor's notes on completion: the session report. */
    report: text().nullable(),
    meeting_link: text().nullable(),
    google_calendar_event_id: text().nullable(),
    calendar_sync_status: text<CalendarSyncStatus>().default('pending'),
    /** When Topmark last wrote the session's calendar event (the sync card's "last sync"). */
    calendar_synced_at: timestamptz().nullable(),
    booked_by: text(),
    booked_at: timestamptz(),
    tutor_time_zone: text(),
    student_time_zone: text(),
    cancelled_at: timestamptz().nullable(),
    /** released | forfeited: what the cancellation did with the credit. */
    cancel_credit: text().nullable(),
    completed_at: timestamptz().nullable(),
  },
  {
    indexes: [
      { name: 'sessions_tutor_start', on: ['tutor_id', 'start_at'] },
      { name: 'sessions_student_start', on: ['student_id', 'start_at'] },
      { name: 'sessions_course', on: ['course_id'] },
      // The console's Sessions tab: newest first, by status, by booking time.
      { name: 'sessions_start', on: ['start_at', 'id'] },
      { name: 'sessions_status_start', on: ['status', 'start_at'] },
      { name: 'sessions_booked_at', on: ['booked_at', 'id'] },
    ],
  },
);
export type SessionRow = RowOf<typeof sessions>;

/** Calendar feeds (issue 22 §3): who a feed token belongs to, by the token's SHA-256 (never the token). */
export const calendarFeeds = table(
  'calendar_feeds',
  {
    user_id: text().primaryKey(),
    token_hash: text(),
    issued_at: timestamptz(),
  },
  { indexes: [{ name: 'calendar_feeds_token_hash', on: ['token_hash'], unique: true }] },
);
export type CalendarFeedRow = RowOf<typeof calendarFeeds>;
