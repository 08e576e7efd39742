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

export function findUnstorableText(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (!isStorableText(key)) return [...path, key];
      const found = findUnstorableText(inner, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
