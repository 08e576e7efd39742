import type { FastifyInstance } from 'fastify';
import { findUnstorableText, type UnstorableText } from '../../domain/kit/storableText.ts';

/**
 * Text PostgreSQL cannot store (src/domain/kit/storableText.ts) reaching a query fails it, and
 * reaching an event would stop every projector that writes the event. Every request is checked
 * here, at the boundary, before any route's validation or handler runs.
 */
export const CANNOT_BE_STORED = 'contains characters that cannot be stored';

export { findUnstorableText, isStorableText } from '../../domain/kit/storableText.ts';

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
