import type { PayoutPeriodView } from '../../../domain/payouts/payoutApi.ts';
import { csvRecords, neutraliseFormula } from '../../kit/csv.ts';

/** Text cells (ids, names, notes) are neutralised; amounts are written by us, so a negative adjustment stays a number. */
const textCell = neutraliseFormula;

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
  return csvRecords([HEADER, ...rows, total]);
}

export const payoutCsvFilename = (view: PayoutPeriodView) => `topmark-payouts-${view.period.start}-to-${view.period.end}.csv`;
