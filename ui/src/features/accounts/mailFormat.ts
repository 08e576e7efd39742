/**
 * A file's MIME type without its parameters, and the iTIP method a calendar file names:
 * `text/calendar; charset=utf-8; method=REQUEST` → `{ type: 'text/calendar', method: 'REQUEST' }`.
 */
export function describeType(contentType: string): { type: string; method: string | null } {
  const [type = contentType, ...params] = contentType.split(';').map((p) => p.trim());
  const method = params.find((p) => p.toLowerCase().startsWith('method='))?.slice('method='.length) ?? null;
  return { type, method: method ? method.replace(/"/g, '').toUpperCase() : null };
}
