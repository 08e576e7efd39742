import { stringify } from 'csv-stringify/sync';

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return before one) as a
 * formula: such text gets a leading apostrophe, which shows as text and runs nothing. Applied by
 * the caller to the cells people typed, not by csv-stringify's `escape_formulas`, which would also
 * turn the amounts we write (a negative adjustment, "-5.00") into text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const neutraliseFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

export interface CsvOptions {
  /** Every cell quoted, empty ones too (`""`); otherwise only cells that need it. */
  quoteAll?: boolean;
}

/**
 * Records as RFC 4180 CSV, each ending in CRLF. Quotes inside a cell are doubled; a cell with a
 * comma, a quote or a line break (a lone LF or CR included) is quoted.
 */
export function csvRecords(records: readonly (readonly string[])[], options: CsvOptions = {}): string {
  return stringify(records as string[][], {
    record_delimiter: '\r\n',
    quoted_match: /[\r\n]/,
    ...(options.quoteAll && { quoted: true, quoted_empty: true }),
  });
}
