import { z } from 'zod';
import { supportedInstant } from '../kit/supportedDates.ts';
import { CANCELLATION_NOTICE_HOURS, type CreditPolicy, creditPolicies, sessionStatuses } from './session.ts';
import { calendarSyncStatuses } from './sessionCalendar.ts';
import { CANCEL_REASON_MAX, CANCEL_REASON_REQUIRED, CANCEL_REASON_TOO_LONG } from './sessionDecider.ts';

/** The console's Sessions tab (issue 12 §2): the list's query and rows, and cancelling on anyone's behalf. */

export const adminSessionSortColumns = ['start', 'status', 'tutor', 'student', 'subject', 'bookedAt'] as const;
export const ADMIN_SESSIONS_PAGE_SIZE_MAX = 100;
const SEARCH_MAX = 200;
const id = z.string().min(1).max(100);
const instant = (label: string) => supportedInstant({ format: 'Use an ISO date and time', label });

/** GET /api/admin/sessions: `from` inclusive, `to` exclusive (start times); search on tutor, student and subject names. */
export const adminSessionListQuerySchema = z.object({
  status: z.enum(sessionStatuses).optional(),
  tutorId: id.optional(),
  studentId: id.optional(),
  from: instant('from').optional(),
  to: instant('to').optional(),
  search: z.string().trim().max(SEARCH_MAX).optional(),
  sort: z.enum(adminSessionSortColumns).default('start'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_SESSIONS_PAGE_SIZE_MAX).default(25),
});
export type AdminSessionListQuery = z.input<typeof adminSessionListQuerySchema>;
export type AdminSessionListFilter = z.output<typeof adminSessionListQuerySchema>;

export const adminSessionSchema = z.object({
  id: z.string(),
  tutorId: z.string(),
  tutorName: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  subjectName: z.string(),
  start: z.string(),
  end: z.string(),
  status: z.enum(sessionStatuses),
  calendarSyncStatus: z.enum(calendarSyncStatuses),
  /** What a cancellation did with the credit: released | forfeited. */
  cancelCredit: z.enum(['released', 'forfeited']).nullable(),
  bookedAt: z.string(),
});
export type AdminSession = z.output<typeof adminSessionSchema>;

export const adminSessionPageSchema = z.object({ rows: z.array(adminSessionSchema), total: z.number().int() });
export type AdminSessionPage = z.output<typeof adminSessionPageSchema>;

/** POST /api/admin/sessions/{id}/cancel. The decider trims the reason and refuses an empty or long one. */
export const adminCancelSessionBodySchema = z.object({
  reason: z.string({ error: CANCEL_REASON_REQUIRED }).max(CANCEL_REASON_MAX * 2, CANCEL_REASON_TOO_LONG),
  creditPolicy: z.enum(creditPolicies).default('rule'),
});
export type AdminCancelSessionBody = z.input<typeof adminCancelSessionBodySchema>;

export const adminCancelSessionAnswerSchema = z.object({
  id: z.string(),
  status: z.literal('cancelled'),
  credit: z.enum(['released', 'forfeited']),
  creditPolicy: z.enum(creditPolicies),
});

/**
 * What cancelling now would do with the credit: the dialog says it before the admin confirms. The
 * decider computes the same from the same rule (more than 12 hours' notice, or an admin's refund,
 * which it refuses once the session has started: the dialog then offers the rule only).
 */
export function creditOutcome(start: string, now: Date, policy: CreditPolicy): 'released' | 'forfeited' {
  if (policy === 'refundCredit' && !hasStarted(start, now)) return 'released';
  return Date.parse(start) - now.getTime() > CANCELLATION_NOTICE_HOURS * 3_600_000 ? 'released' : 'forfeited';
}

/** The session's start has come: nothing moves it, and no cancellation gives its credit back. */
export const hasStarted = (start: string, now: Date) => now.getTime() >= Date.parse(start);
