import type { FastifyInstance } from 'fastify';

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, and a lone UTF-16 surrogate cannot be encoded
 * in UTF-8 at all: such text reaching a query fails it, and reaching an event would stop every
 * projector that writes the event. Every request is checked here, at the boundary, before any
 * route's validation or handler runs.
 */
const PATTERN = '\\u0000|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const UNSTORABLE = new RegExp(PATTERN);
const UNSTORABLE_ALL = new RegExp(PATTERN, 'g');

export const CANNOT_BE_STORED = 'contains characters that cannot be stored';

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

export interface UnstorableText {
  /** The path to the string, e.g. `['student', 'firstName']` or `['items', '0']`. */
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
 * The first string (value or field name) in a parsed JSON value that PostgreSQL cannot store.
 * Walks with its own stack, so no nesting depth can overflow the call stack.
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
        if (!isStorableText(key)) return { path: [...pathOf(node), key.replace(UNSTORABLE_ALL, '\uFFFD')], inName: true };
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: (v as Record<string, unknown>)[key], key, parent: node });
      }
    }
  }
  return null;
}

/** `firstName` → "First name", `code_challenge` → "Code challenge". */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'A field';
}

export function unstorableMessage(found: UnstorableText): { message: string; field: string } {
  const field = found.path.join('.');
  if (found.inName) return { message: `A field name ${CANNOT_BE_STORED}`, field };
  const name = [...found.path].reverse().find((segment) => !/^\d+$/.test(segment));
  return { message: `${name ? fieldLabel(name) : 'The request'} ${CANNOT_BE_STORED}`, field };
}

/**
 * Refuses (400 `{ message, field }`) a request whose path parameters, query or body hold text
 * PostgreSQL cannot store, at any depth. Installed after the role check (an anonymous caller
 * still gets its 401 first) and before each route's validation.
 */
export function installStorableTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    for (const part of [request.params, request.query, request.body]) {
      if (part === undefined || part === null) continue;
      const found = findUnstorableText(part);
      if (!found) continue;
      const { message, field } = unstorableMessage(found);
      return reply.status(400).send({ message, field, errors: [{ field, message }] });
    }
  });
}
