import { z } from 'zod';
import { RESOLUTION_NOTE_MAX } from './alert.ts';
import { entityKinds } from './entityKinds.ts';

/** The kinds of alert the platform raises (spec part 1 §3 `alerts.type`; issue 12 §4). */
export const alertTypes = [
  'payment_failed',
  'calendar_sync_failed',
  'calendar_event_moved',
  'calendar_invalid_grant',
  'projection_stopped',
  'event_parked',
  'job_failed',
  'late_cancellation',
  'refund_outside_topmark',
  'promo_code_guessing',
  'tutor_left',
  'subject_without_tutor',
] as const;
export type AlertType = (typeof alertTypes)[number];
export const alertTypeLabels: Record<AlertType, string> = {
  payment_failed: 'Payment failed',
  calendar_sync_failed: 'Calendar sync failed',
  calendar_event_moved: 'Calendar event moved',
  calendar_invalid_grant: 'Calendar access lost',
  projection_stopped: 'Projection stopped',
  event_parked: 'Event parked',
  job_failed: 'Job gave up',
  late_cancellation: 'Late cancellation',
  refund_outside_topmark: 'Refund outside Topmark',
  promo_code_guessing: 'Promo code guessing',
  tutor_left: "A family's tutor left",
  subject_without_tutor: 'Subject without a tutor',
};

export const alertSeverities = ['low', 'medium', 'high'] as const;

export const alertSubjectSchema = z.object({ kind: z.enum(entityKinds), id: z.string(), name: z.string().nullable() });
export type AlertSubject = z.output<typeof alertSubjectSchema>;

/** One alert as the console shows it (spec part 1 §3 `alerts`, plus the resolution note). */
export const alertSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  severity: z.enum(alertSeverities),
  isResolved: z.boolean(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  userId: z.string().nullable(),
  studentId: z.string().nullable(),
  sessionId: z.string().nullable(),
  purchaseId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
  /**
   * What the alert is about, named, each opening that entity's history in the console: its
   * purchase, session, student and person (a name resolved when read; "Deleted user" once erased).
   */
  about: z.array(alertSubjectSchema).optional(),
});
export type AlertView = z.output<typeof alertSchema>;

export const alertStatuses = ['open', 'resolved', 'all'] as const;
export const alertSortColumns = ['createdAt', 'severity', 'type'] as const;
export const ALERTS_PAGE_SIZE_MAX = 100;

/** GET /api/admin/alerts: filters, sorting and paging done by the server. */
export const alertListQuerySchema = z.object({
  status: z.enum(alertStatuses).default('all'),
  type: z.enum(alertTypes).optional(),
  sort: z.enum(alertSortColumns).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ALERTS_PAGE_SIZE_MAX).default(25),
});
export type AlertListQuery = z.output<typeof alertListQuerySchema>;

export const alertPageSchema = z.object({
  rows: z.array(alertSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AlertPage = z.output<typeof alertPageSchema>;

/** POST /api/admin/alerts/{id}/resolve: the decider says what is wrong with the note (spaces only, too long). */
export const resolveAlertBodySchema = z.object({ note: z.string().max(RESOLUTION_NOTE_MAX * 2) });
