import { payoutPeriodViewSchema, payoutTutorSessionsSchema, tutorRateViewSchema } from '@shared/payouts/payoutApi.ts';
import { type PayoutMethod, payoutMethods } from '@shared/payouts/payoutPeriod.ts';
import { api, jsonQuery } from '../../app/api.ts';

/** The Payouts tab's calls (issue 12 §3). `period`: any day inside the period; none: the last period that ended. */
export const payoutsApi = {
  allKey: ['/api/admin/payouts'] as const,
  periodKey: (period: string | null) => ['/api/admin/payouts', period ?? 'latest'] as const,
  period: (period: string | null) =>
    jsonQuery(`/api/admin/payouts${period ? `?period=${encodeURIComponent(period)}` : ''}`, payoutPeriodViewSchema),
  sessionsKey: (periodStart: string, tutorId: string) => ['/api/admin/payouts', periodStart, 'sessions', tutorId] as const,
  /** The payable sessions behind a tutor's lines of the period starting `periodStart`. */
  sessions: (periodStart: string, tutorId: string) =>
    jsonQuery(
      `/api/admin/payouts/${encodeURIComponent(periodStart)}/tutors/${encodeURIComponent(tutorId)}/sessions`,
      payoutTutorSessionsSchema,
    ),
  csvUrl: (periodStart: string) => `/api/admin/payouts/${encodeURIComponent(periodStart)}.csv`,
  approve: (periodStart: string) =>
    api.send('POST', `/api/admin/payouts/${encodeURIComponent(periodStart)}/approve`, undefined, payoutPeriodViewSchema),
  markPaid: (periodStart: string, body: { method: PayoutMethod; reference: string }) =>
    api.send('POST', `/api/admin/payouts/${encodeURIComponent(periodStart)}/mark-paid`, body, payoutPeriodViewSchema),
  changeRate: (tutorId: string, body: { hourlyRate: number; reason: string; effectiveFrom?: string }) =>
    api.send('PUT', `/api/admin/tutors/${encodeURIComponent(tutorId)}/rate`, body, tutorRateViewSchema),
};

export const PAYOUT_METHOD_LABELS: Record<PayoutMethod, string> = {
  direct_deposit: 'Direct deposit',
  e_transfer: 'Interac e-Transfer',
  cheque: 'Cheque',
  other: 'Other',
};
export { payoutMethods };

const money = new Intl.NumberFormat('en-CA', { style: 'currency', currency: 'CAD' });
export const formatMoney = (dollars: number) => money.format(dollars);

/** `2026-11-01` → "Nov 1, 2026" (a calendar day: no zone shifts it). */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).toLocaleDateString('en-CA', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}
