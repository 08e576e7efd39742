import type { PayoutPeriodView } from '../../../domain/payouts/payoutApi.ts';

/**
 * A spreadsheet opens a cell starting with = + - @ (or a tab / carriage return) as a formula:
 * text cells that do are prefixed with an apostrophe. Amounts are written by us, so a negative
 * adjustment stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function textCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const money = (n: number | null) => (n === null ? '' : n.toFixed(2));

const HEADER = ['period_start', 'period_end', 'status', 'kind', 'tutor_id', 'tutor_name', 'sessions', 'hours', 'rate', 'amount', 'note'];

/** The period's lines as CSV (RFC 4180, CRLF), amounts with 2 decimals, ending with a total row. */
export function payoutCsv(view: PayoutPeriodView): string {
  const { start, end } = view.period;
  const rows = view.lines.map((l) => [
    start,
    end,
    view.status,
    l.kind,
    textCell(l.tutorId),
    textCell(l.tutorName),
    String(l.sessions),
    String(l.hours),
    money(l.rate),
    money(l.amount),
    textCell(l.note ?? ''),
  ]);
  const total = [start, end, view.status, 'total', '', '', '', '', '', money(view.total), ''];
  return `${[HEADER, ...rows, total].map((r) => r.join(',')).join('\r\n')}\r\n`;
}

export const payoutCsvFilename = (view: PayoutPeriodView) => `topmark-payouts-${view.period.start}-to-${view.period.end}.csv`;
