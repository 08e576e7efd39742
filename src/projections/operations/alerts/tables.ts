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
