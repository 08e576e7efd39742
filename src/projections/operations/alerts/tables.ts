import { boolean, jsonb, type RowOf, table, text, timestamptz, uuid } from '../../kit/table.ts';

/** Alerts an admin must act on, fed by the platform's own failure events. */
export const alerts = table(
  'alerts',
  {
    id: uuid().primaryKey(),
    type: text<
      | 'projection_stopped'
      | 'event_parked'
      | 'job_failed'
      | 'calendar_invalid_grant'
      | 'payment_failed'
      | 'calendar_sync_failed'
      | 'calendar_event_moved'
      | 'late_cancellation'
      | 'refund_outside_topmark'
      | 'promo_code_guessing'
      | 'tutor_left'
      | 'subject_without_tutor'
    >(),
    title: text(),
    description: text().nullable(),
    severity: text<'low' | 'medium' | 'high'>().default('medium'),
    is_resolved: boolean().default(false),
    resolved_at: timestamptz().nullable(),
    resolved_by: text().nullable(),
    /** What the admin did (AlertResolved); null for alerts the system closed itself. */
    resolution_note: text().nullable(),
    user_id: text().nullable(),
    student_id: text().nullable(),
    session_id: text().nullable(),
    purchase_id: text().nullable(),
    metadata: jsonb<Record<string, unknown>>().nullable(),
    created_at: timestamptz(),
  },
  {
    indexes: [
      { name: 'alerts_open', on: ['is_resolved', 'created_at DESC'] },
      { name: 'alerts_type', on: ['type', 'created_at DESC'] },
    ],
  },
);
export type AlertRow = RowOf<typeof alerts>;

/**
 * What the alerts projection remembers to notice a family left without a tutor (issue 24): each
 * open course's student, purchase, subject and tutor, from the courses' events. Its own tables, so
 * a rebuild of the alerts replays them from the log.
 */
export const alertCourses = table('alert_courses', {
  course_id: text().primaryKey(),
  student_id: text(),
  purchase_id: text(),
  subject_id: text(),
  tutor_id: text().nullable(),
  is_open: boolean().default(true),
});
export type AlertCourseRow = RowOf<typeof alertCourses>;

/** Each tutor's standing as the directory judges it (onboarded, not deactivated, not deleted) and what they teach. */
export const alertTutors = table('alert_tutors', {
  tutor_id: text().primaryKey(),
  onboarded: boolean().default(false),
  deactivated: boolean().default(false),
  deleted: boolean().default(false),
  subject_ids: jsonb<string[]>(),
});
export type AlertTutorRow = RowOf<typeof alertTutors>;

/** Subject names for the alerts' words (the catalogue's entries). */
export const alertSubjects = table('alert_subjects', {
  subject_id: text().primaryKey(),
  name: text(),
});
