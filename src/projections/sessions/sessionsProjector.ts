import { defineProjection, type ProjectedEvent } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { type SessionRow, sessions } from './tables.ts';

const sessionEventTypes = [
  'SessionBooked',
  'SessionCancelled',
  'SessionCompleted',
  'SessionRescheduled',
  'SessionCalendarEventWritten',
  'SessionCalendarEventRemoved',
  'SessionCalendarSyncFailed',
  'SessionCalendarEventLost',
  'SessionInviteSent',
] as const;
const handles = [...sessionEventTypes, 'StudentProfileErased'] as const;
type SessionEvent = ProjectedEvent<(typeof sessionEventTypes)[number]>;
type HandledEvent = ProjectedEvent<(typeof handles)[number]>;
const isSessionEvent = (e: HandledEvent): e is SessionEvent => e.type !== 'StudentProfileErased';

function applySessionEvent(row: SessionRow | null, event: SessionEvent): SessionRow | null {
  if (event.type === 'SessionBooked') {
    const d = event.data;
    return {
      id: d.sessionId,
      tutor_id: d.tutorId,
      student_id: d.studentId,
      course_id: d.courseId,
      subject_id: d.subjectId,
      subject_name: d.subjectName,
      start_at: d.start,
      end_at: d.end,
      duration: d.durationMinutes,
      status: 'scheduled',
      notes: d.notes,
      report: null,
      meeting_link: null,
      google_calendar_event_id: null,
      calendar_sync_status: 'pending',
      calendar_synced_at: null,
      booked_by: d.bookedBy,
      booked_at: d.at,
      tutor_time_zone: d.tutorTimeZone,
      student_time_zone: d.studentTimeZone,
      cancelled_at: null,
      cancel_credit: null,
      completed_at: null,
    };
  }
  if (!row) return null;
  switch (event.type) {
    case 'SessionCancelled':
      return { ...row, status: 'cancelled', cancelled_at: event.data.at, cancel_credit: event.data.credit };
    case 'SessionCompleted':
      return { ...row, status: 'completed', completed_at: event.data.at, report: event.data.notes.trim() ? event.data.notes : null };
    case 'SessionRescheduled':
      // The calendar shows the old hour until the saga moves the event.
      return { ...row, start_at: event.data.start, end_at: event.data.end, calendar_sync_status: 'pending' };
    case 'SessionCalendarEventWritten': {
      const current = new Date(row.start_at).getTime() === Date.parse(event.data.start);
      return {
        ...row,
        meeting_link: event.data.meetingLink ?? row.meeting_link,
        google_calendar_event_id: event.data.calendarEventId,
        calendar_sync_status: current ? 'synced' : row.calendar_sync_status,
        calendar_synced_at: event.data.at,
      };
    }
    case 'SessionCalendarEventRemoved':
      return { ...row, calendar_sync_status: 'removed', calendar_synced_at: event.data.at };
    case 'SessionCalendarSyncFailed':
      return { ...row, calendar_sync_status: 'failed' };
    case 'SessionCalendarEventLost':
      return { ...row, google_calendar_event_id: null, meeting_link: null, calendar_sync_status: 'pending' };
    case 'SessionInviteSent':
      return { ...row, meeting_link: event.data.meetingLink ?? row.meeting_link };
  }
}

/** Sessions with their tutor, student, subject, hour and status: the tutor's and the student's lists. */
export const sessionsProjector = defineProjection({
  name: 'sessions',
  handles,
  tables: [sessions],
  async apply(tx, events) {
    await foldRows(tx, sessions, events.filter(isSessionEvent), { keyOf: (e) => e.data.sessionId, apply: applySessionEvent });
    // An erased student's notes and reports leave the read model with them (the events' copies are sealed).
    const erased = events.flatMap((e) => (e.type === 'StudentProfileErased' ? [e.data.studentId] : []));
    if (erased.length > 0) await tx`UPDATE sessions SET notes = NULL, report = NULL WHERE student_id IN ${tx(erased)}`;
  },
});
