/**
 * PostgreSQL cannot store U+0000 in text or jsonb, and a lone UTF-16 surrogate cannot be encoded
 * at all: an event holding either would stop every projector that writes it. This finds the
 * first such string in a value and names its path, so it can be refused before it is appended.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

interface Step {
  key: string;
  parent: Step | null;
}

const pathOf = (step: Step | null): string[] => {
  const path: string[] = [];
  for (let s = step; s; s = s.parent) path.push(s.key);
  return path.reverse();
};

/**
 * The path of the first unstorable string (or key) in a value, or null. Iterative, with each
 * path shared by its children, so any depth is safe and linear.
 */
export function findUnstorableText(value: unknown): string[] | null {
  const stack: { value: unknown; at: Step | null }[] = [{ value, at: null }];
  while (stack.length > 0) {
    const { value: current, at } = stack.pop() as { value: unknown; at: Step | null };
    if (typeof current === 'string') {
      if (!isStorableText(current)) return pathOf(at);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const isArray = Array.isArray(current);
    const entries = isArray ? current.map((v, i) => [String(i), v] as const) : Object.entries(current);
    // Pushed in reverse so the first field is looked at first (the error names the first offender).
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as readonly [string, unknown];
      const step = { key, parent: at };
      if (!isArray && !isStorableText(key)) return pathOf(step);
      stack.push({ value: inner, at: step });
    }
  }
  return null;
}
