import type { Sql } from '../../adapters/db/db.ts';
import { nextBillingPeriod, PAYOUT_TIME_ZONE, previousBillingPeriod, type Span } from '../../domain/payouts/billingPeriod.ts';
import { type RateChange, rateInForce } from '../../domain/payouts/hourlyRate.ts';
import type { PayoutLineView, PayoutPeriodView, PayoutTutorSessionsView } from '../../domain/payouts/payoutApi.ts';
import { adjustmentLines, periodsAdjustedBy, type SessionTally, sessionLines, totalCents } from '../../domain/payouts/payoutLines.ts';
import type { PayoutLine, PayoutMethod, PayoutStatus } from '../../domain/payouts/payoutPeriod.ts';
import { DELETED_USER } from '../operations/entityNames.ts';

/**
 * The payouts read model's queries. An open period is computed on request (a preview): its
 * payable sessions at the rate in force at each start, plus the adjustments of the approved
 * periods right before it; an approved period answers the lines its approval froze.
 */

/**
 * Each tutor's rate history from `payout_rates` (the profile's rate at creation from the beginning,
 * then every change), in the order recorded: what `rateInForce` reads.
 */
export async function rateHistories(sql: Sql, tutorIds: readonly string[]): Promise<Map<string, RateChange[]>> {
  const histories = new Map<string, RateChange[]>();
  if (tutorIds.length === 0) return histories;
  const rows = await sql<{ tutor_id: string; effective_from: Date; hourly_rate_cents: number }[]>`
    SELECT tutor_id, effective_from, hourly_rate_cents FROM payout_rates
    WHERE tutor_id = ANY(${[...new Set(tutorIds)]}) ORDER BY position`;
  for (const r of rows) {
    const history = histories.get(r.tutor_id) ?? [];
    history.push({ hourlyRateCents: r.hourly_rate_cents, effectiveFrom: r.effective_from.toISOString() });
    histories.set(r.tutor_id, history);
  }
  return histories;
}

/** Payable sessions of `[start, end)` per tutor and rate in force at each session's start. */
export async function sessionTallies(sql: Sql, span: { start: Date; end: Date }): Promise<SessionTally[]> {
  const sessions = await sql<{ tutor_id: string; start_at: Date }[]>`
    SELECT tutor_id, start_at FROM payout_sessions
    WHERE payable AND start_at >= ${span.start} AND start_at < ${span.end}`;
  const rates = await rateHistories(
    sql,
    sessions.map((s) => s.tutor_id),
  );
  const tallies = new Map<string, SessionTally>();
  for (const s of sessions) {
    const rateCents = rateInForce(rates.get(s.tutor_id) ?? [], s.start_at);
    const key = `${s.tutor_id}\u0000${rateCents}`;
    const tally = tallies.get(key) ?? { tutorId: s.tutor_id, rateCents, sessions: 0 };
    tally.sessions += 1;
    tallies.set(key, tally);
  }
  return [...tallies.values()];
}

interface LineRead {
  period_start: string;
  kind: PayoutLine['kind'];
  tutor_id: string;
  sessions: number;
  rate_cents: number | null;
  amount_cents: number;
  adjusts: string | null;
}

const lineOf = (r: LineRead): PayoutLine => ({
  kind: r.kind,
  tutorId: r.tutor_id,
  sessions: r.sessions,
  rateCents: r.rate_cents,
  amountCents: r.amount_cents,
  adjusts: r.adjusts,
});

async function approvedPeriodIds(sql: Sql): Promise<Set<string>> {
  const rows = await sql<{ id: string }[]>`SELECT id FROM payout_periods`;
  return new Set(rows.map((r) => r.id));
}

/**
 * What an open period would pay now: its sessions, then for each approved period right before
 * it, each tutor's difference between what that period's sessions come to now and what was
 * approved for them (its own lines and the adjustments approved since). Approval freezes these.
 */
export async function previewLines(sql: Sql, period: Span): Promise<PayoutLine[]> {
  const approved = await approvedPeriodIds(sql);
  const lines = sessionLines(await sessionTallies(sql, period));
  const adjusted = periodsAdjustedBy(period, (day) => approved.has(day));
  if (adjusted.length === 0) return lines;
  const days = adjusted.map((p) => p.firstDay);
  const settled = await sql<LineRead[]>`
    SELECT period_start, kind, tutor_id, sessions, rate_cents, amount_cents, adjusts FROM payout_lines
    WHERE (kind = 'sessions' AND period_start = ANY(${days})) OR adjusts = ANY(${days})`;
  // Oldest first: the adjustments read in the order the periods ran.
  for (const p of [...adjusted].reverse()) {
    const own = settled.filter((l) => (l.kind === 'sessions' ? l.period_start : l.adjusts) === p.firstDay).map(lineOf);
    lines.push(...adjustmentLines(p.firstDay, await sessionTallies(sql, p), own));
  }
  return lines;
}

interface PeriodRead {
  status: PayoutStatus;
  approved_at: Date;
  paid_at: Date | null;
  payment_method: PayoutMethod | null;
  payment_reference: string | null;
}

const dollars = (cents: number) => Math.round(cents) / 100;

function noteOf(line: PayoutLine): string | null {
  if (line.kind === 'adjustment') return `Adjustment to the approved period starting ${line.adjusts}`;
  return line.rateCents === null ? 'No hourly rate in force' : null;
}

/** Tutors' names from the accounts read model; a deleted account reads "Former tutor". */
async function tutorNames(sql: Sql, tutorIds: string[]): Promise<Map<string, string>> {
  if (tutorIds.length === 0) return new Map();
  const rows = await sql<{ id: string; first_name: string; last_name: string }[]>`
    SELECT id, first_name, last_name FROM users WHERE id = ANY(${tutorIds})`;
  return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name}`.trim()]));
}

/** The period view of `GET /api/admin/payouts`: status, lines (sessions first by name, then adjustments), total. */
export async function payoutPeriodView(sql: Sql, period: Span, now: Date): Promise<PayoutPeriodView> {
  const [row] = await sql<PeriodRead[]>`
    SELECT status, approved_at, paid_at, payment_method, payment_reference FROM payout_periods WHERE id = ${period.firstDay}`;
  const lines = row
    ? (
        await sql<LineRead[]>`
          SELECT period_start, kind, tutor_id, sessions, rate_cents, amount_cents, adjusts
          FROM payout_lines WHERE period_start = ${period.firstDay} ORDER BY line_no`
      ).map(lineOf)
    : await previewLines(sql, period);
  const names = await tutorNames(sql, [...new Set(lines.map((l) => l.tutorId))]);
  const views: PayoutLineView[] = lines.map((l) => ({
    kind: l.kind,
    tutorId: l.tutorId,
    tutorName: names.get(l.tutorId) ?? 'Former tutor',
    sessions: l.sessions,
    hours: l.sessions,
    rate: l.rateCents === null ? null : dollars(l.rateCents),
    amount: dollars(l.amountCents),
    adjusts: l.adjusts,
    note: noteOf(l),
  }));
  views.sort((a, b) => (a.kind === b.kind ? a.tutorName.localeCompare(b.tutorName) : a.kind === 'sessions' ? -1 : 1));
  return {
    period: { start: period.firstDay, end: period.lastDay },
    status: row?.status ?? 'open',
    lines: views,
    total: dollars(totalCents(lines)),
    ended: now.getTime() >= period.end.getTime(),
    approvedAt: row?.approved_at.toISOString() ?? null,
    paidAt: row?.paid_at?.toISOString() ?? null,
    method: row?.payment_method ?? null,
    reference: row?.payment_reference ?? null,
    previousPeriodStart: previousBillingPeriod(period, PAYOUT_TIME_ZONE).firstDay,
    nextPeriodStart: nextBillingPeriod(period, PAYOUT_TIME_ZONE).firstDay,
  };
}

interface PayoutSessionRead {
  id: string;
  start_at: Date;
  status: string;
  subject: string | null;
  duration: number | null;
  student: string | null;
}

/**
 * The payable sessions of one tutor in one period, each at the rate in force at its start (the same
 * choice as `sessionTallies`, so a line's sessions add up to it), with the student and subject from
 * the sessions and students read models, read when asked so an erased student reads "Deleted user".
 */
export async function payoutTutorSessions(sql: Sql, period: Span, tutorId: string): Promise<PayoutTutorSessionsView> {
  const rows = await sql<PayoutSessionRead[]>`
    SELECT s.id, s.start_at, s.status, se.subject_name AS subject, se.duration,
           nullif(trim(st.first_name || ' ' || st.last_name), '') AS student
    FROM payout_sessions s
    LEFT JOIN sessions se ON se.id = s.id
    LEFT JOIN students st ON st.id = se.student_id
    WHERE s.payable AND s.tutor_id = ${tutorId} AND s.start_at >= ${period.start} AND s.start_at < ${period.end}
    ORDER BY s.start_at, s.id`;
  const names = await tutorNames(sql, [tutorId]);
  const history = (await rateHistories(sql, [tutorId])).get(tutorId) ?? [];
  const rated = rows.map((r) => ({ ...r, rate_cents: rateInForce(history, r.start_at) }));
  // Each payable session is one hour at its rate (payoutLines.ts), whatever its booked length.
  const sessions = rated.map((r) => ({
    sessionId: r.id,
    start: r.start_at.toISOString(),
    studentName: r.student ?? DELETED_USER,
    subject: r.subject,
    durationMinutes: r.duration,
    status: r.status,
    rate: r.rate_cents === null ? null : dollars(r.rate_cents),
    amount: dollars(r.rate_cents ?? 0),
  }));
  return {
    period: { start: period.firstDay, end: period.lastDay },
    tutorId,
    tutorName: names.get(tutorId) ?? 'Former tutor',
    sessions,
    total: dollars(rated.reduce((sum, r) => sum + (r.rate_cents ?? 0), 0)),
  };
}
