import { z } from 'zod';
import { supportedDay, supportedInstant } from '../kit/supportedDates.ts';
import { payoutLineKinds, payoutMethods } from './payoutPeriod.ts';

/** The payout answers of `/api/admin/payouts…` (issue 12 §3): money in dollars to the cent. */

export const payoutLineViewSchema = z.object({
  kind: z.enum(payoutLineKinds),
  tutorId: z.string(),
  tutorName: z.string(),
  sessions: z.number().int(),
  hours: z.number(),
  /** Dollars an hour; null on adjustments and when no rate was in force. */
  rate: z.number().nullable(),
  amount: z.number(),
  /** The approved period an adjustment corrects (its first day). */
  adjusts: z.string().nullable(),
  note: z.string().nullable(),
});
export type PayoutLineView = z.output<typeof payoutLineViewSchema>;

export const payoutPeriodViewSchema = z.object({
  period: z.object({ start: z.string(), end: z.string() }),
  status: z.enum(['open', 'approved', 'paid']),
  lines: z.array(payoutLineViewSchema),
  total: z.number(),
  /** Whether the period is over (only then can it be approved). */
  ended: z.boolean(),
  approvedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  method: z.enum(payoutMethods).nullable(),
  reference: z.string().nullable(),
  /** The first days of the periods before and after, for the picker. */
  previousPeriodStart: z.string(),
  nextPeriodStart: z.string(),
});
export type PayoutPeriodView = z.output<typeof payoutPeriodViewSchema>;

export const PERIOD_INVALID = 'period must be a date (yyyy-MM-dd)';

/** A real day of the supported years (src/domain/kit/supportedDates.ts). */
export const payoutPeriodQuerySchema = z.object({ period: supportedDay({ format: PERIOD_INVALID, label: 'period' }).optional() });
export const payoutPeriodParamsSchema = z.object({
  periodStart: supportedDay({ format: 'Expected a date as yyyy-MM-dd', label: 'periodStart' }),
});

/** GET /api/admin/payouts/:periodStart/tutors/:tutorId/sessions: the drill-down of a tutor's lines. */
export const payoutSessionsParamsSchema = payoutPeriodParamsSchema.extend({
  tutorId: z.string().min(1).max(100),
});

/** One payable session behind a tutor's line: when, with whom, what, how long, and what it pays. */
export const payoutSessionViewSchema = z.object({
  sessionId: z.string(),
  start: z.string(),
  /** "Deleted user" once the student is erased. */
  studentName: z.string(),
  subject: z.string().nullable(),
  durationMinutes: z.number().int().nullable(),
  /** completed, or cancelled (too late: the credit was forfeited, the tutor is paid). */
  status: z.string(),
  /** Dollars an hour in force at the session's start; null when none was (paid 0). */
  rate: z.number().nullable(),
  amount: z.number(),
});
export type PayoutSessionView = z.output<typeof payoutSessionViewSchema>;

export const payoutTutorSessionsSchema = z.object({
  period: z.object({ start: z.string(), end: z.string() }),
  tutorId: z.string(),
  tutorName: z.string(),
  sessions: z.array(payoutSessionViewSchema),
  /** The sessions' amounts added up: what the period's session lines of this tutor come to now. */
  total: z.number(),
});
export type PayoutTutorSessionsView = z.output<typeof payoutTutorSessionsSchema>;

export const markPaidBodySchema = z.object({
  method: z.enum(payoutMethods),
  reference: z.string().max(200),
});

/** Dollars with at most 2 decimals (no float drift: `hourlyRate * 100` must be whole cents). */
export const changeRateBodySchema = z.object({
  hourlyRate: z
    .number()
    .positive()
    .max(1000)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'Hourly rate must have at most 2 decimals'),
  effectiveFrom: supportedInstant({
    format: 'effectiveFrom must be an ISO date and time, e.g. 2026-01-31T00:00:00Z',
    label: 'effectiveFrom',
  }).optional(),
  reason: z.string().max(500),
});

export const tutorRateViewSchema = z.object({ tutorId: z.string(), hourlyRate: z.number(), effectiveFrom: z.string() });
