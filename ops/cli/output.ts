/**
 * What every ops command shares: errors that carry an exit code, the one-JSON-document output
 * and the readable tables.
 */

/** Exit codes: 0 success, 1 operational error, 2 usage error. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** An expected failure: its message is meant for the operator, without a stack trace. */
export class OpsError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILED,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'OpsError';
  }
}

export class UsageError extends OpsError {
  constructor(message: string, detail: Record<string, unknown> = {}) {
    super(message, EXIT_USAGE, detail);
    this.name = 'UsageError';
  }
}

/** What a command produces: the JSON document and its readable form. */
export interface CommandResult {
  data: unknown;
  text: () => string;
  /** Non-zero when the command ran but something in it failed (the result is still printed). */
  exitCode?: number;
}

/** JSON that survives PostgreSQL bigints; Dates become ISO strings through their toJSON. */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      typeof v === 'bigint' ? (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString()) : v,
    2,
  );
}

export function writeOut(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function writeErr(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  align?: 'left' | 'right';
  /** Longer cells are cut with an ellipsis. */
  max?: number;
}

/** A plain fixed-width table; cells are single-line. */
export function table<T>(columns: Column<T>[], rows: readonly T[]): string {
  const cells = rows.map((row) => columns.map((c) => clip(oneLine(c.value(row)), c.max)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (columns[i]?.align === 'right' ? v.padStart(widths[i] as number) : v.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ⏎ ').replace(/\t/g, ' ');
}

export function clip(text: string, max?: number): string {
  if (!max || text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

export function time(date: Date | null | undefined): string {
  return date
    ? date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, 'Z')
    : '-';
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  if (ms < 86_400_000) return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
  return `${(ms / 86_400_000).toFixed(1)} d`;
}

export function rate(eventsPerSecond: number | null | undefined): string {
  return eventsPerSecond == null ? '-' : `${count(Math.round(eventsPerSecond))} events/s`;
}

export const dash = (value: unknown): string => (value === null || value === undefined || value === '' ? '-' : String(value));
