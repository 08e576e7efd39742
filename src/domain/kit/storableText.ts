/**
 * PostgreSQL cannot store U+0000 in text or jsonb, and a lone UTF-16 surrogate cannot be encoded
 * at all: an event holding either would stop every projector that writes it. One definition of
 * "storable" serves every layer: the HTTP boundary refuses such input, the command kit refuses
 * such events, the runner cleans error texts it keeps.
 */
const PATTERN = '\\u0000|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const UNSTORABLE = new RegExp(PATTERN);
const UNSTORABLE_ALL = new RegExp(PATTERN, 'g');

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** The text with every unstorable character replaced by U+FFFD, so it can be kept and shown. */
export function toStorableText(text: string): string {
  return text.replace(UNSTORABLE_ALL, '\uFFFD');
}

export interface UnstorableText {
  /** The path to the string, e.g. `['student', 'firstName']` or `['items', '0']`; a bad name is shown cleaned. */
  path: string[];
  /** Whether the field's name itself is the unstorable text. */
  inName: boolean;
}

interface Node {
  value: unknown;
  key: string | null;
  parent: Node | null;
}

const pathOf = (node: Node): string[] => {
  const path: string[] = [];
  for (let n: Node | null = node; n?.key != null; n = n.parent) path.push(n.key);
  return path.reverse();
};

/**
 * The first string (value or field name) in a value that PostgreSQL cannot store, or null.
 * Walks with its own stack and shares each path with its children: any depth is safe and linear.
 */
export function findUnstorableText(value: unknown): UnstorableText | null {
  const stack: Node[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return { path: pathOf(node), inName: false };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), parent: node });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (const key of keys) {
        if (!isStorableText(key)) return { path: [...pathOf(node), toStorableText(key)], inName: true };
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: (v as Record<string, unknown>)[key], key, parent: node });
      }
    }
  }
  return null;
}
