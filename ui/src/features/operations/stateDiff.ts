/** One field an event changed: its path in the state and its value before and after (JSON text; null when absent). */
export interface StateChange {
  path: string;
  before: string | null;
  after: string | null;
}

/** Leaves of a JSON value by dotted path (`booked.start`, `claims.p1.at`); arrays are shown whole, as one value. */
function leaves(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && path) out.set(path, '{}');
    for (const [key, v] of entries) leaves(v, path ? `${path}.${key}` : key, out);
  } else if (path) {
    out.set(path, JSON.stringify(value) ?? 'undefined');
  }
  return out;
}

/** What an event changed in the folded state: every leaf whose value differs, in the after-state's order. */
export function stateDiff(before: unknown, after: unknown): StateChange[] {
  const was = leaves(before, '', new Map());
  const is = leaves(after, '', new Map());
  const changes: StateChange[] = [];
  for (const [path, value] of is) if (was.get(path) !== value) changes.push({ path, before: was.get(path) ?? null, after: value });
  // A value that became an object (null → { … }) shows as its new leaves, not also as a removal.
  const filled = (path: string) => [...is.keys()].some((p) => p.startsWith(`${path}.`));
  for (const [path, value] of was) if (!is.has(path) && !filled(path)) changes.push({ path, before: value, after: null });
  return changes;
}
