import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from '../../adapters/db/db.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { statusOfKind } from './errors.ts';

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,200}$/;

export function contextFrom(request: FastifyRequest, commandId?: string): CommandContext {
  return commandContext({
    commandId,
    actorId: request.principal?.userId ?? null,
    actorRole: request.principal?.role ?? null,
    correlationId: request.id,
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
    now: request.server.clock.now(),
  });
}

/**
 * Runs a write once per `Idempotency-Key`: the command id derives from the key (so the events
 * themselves are deduplicated), and the first response is stored and replayed for repeats.
 */
export async function idempotent<T>(
  sql: Sql,
  request: FastifyRequest,
  reply: FastifyReply,
  run: (ctx: CommandContext) => Promise<{ status: number; body: T; subject?: string | null }>,
): Promise<FastifyReply> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) {
    const { status, body } = await run(contextFrom(request));
    return reply.status(status).send(body);
  }
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw new DomainError('Idempotency-Key must be 8 to 200 letters, digits or -_.:', 'invalid');
  }
  // Keys are per caller: one user's key never replays another user's response.
  const scope = `${request.method} ${request.routeOptions.url} ${request.principal?.userId ?? 'anonymous'}`;
  const hash = createHash('sha256')
    .update(JSON.stringify(withoutSecrets(request.body ?? null)))
    .digest('hex');
  const claimed = await sql`
    INSERT INTO http_idempotency (scope, key, request_hash) VALUES (${scope}, ${key}, ${hash})
    ON CONFLICT (scope, key) DO NOTHING RETURNING key`;
  if (claimed.length === 0) {
    const [previous] = await sql<{ request_hash: string; status_code: number | null; body: unknown }[]>`
      SELECT request_hash, status_code, body FROM http_idempotency WHERE scope = ${scope} AND key = ${key}`;
    if (previous && previous.request_hash !== hash) {
      throw new DomainError('This Idempotency-Key was already used for a different request', 'unprocessable');
    }
    if (previous?.status_code != null) {
      return reply.status(previous.status_code).header('idempotent-replayed', 'true').send(previous.body);
    }
    // The first attempt is in flight or died before answering: the command id makes a re-run safe.
  }
  try {
    const { status, body, subject } = await run(contextFrom(request, deterministicUuid(`${scope}/${key}`)));
    await sql`UPDATE http_idempotency SET status_code = ${status}, body = ${sql.json(body as never)},
                subject = ${subject ?? request.principal?.userId ?? null}
              WHERE scope = ${scope} AND key = ${key}`;
    return reply.status(status).send(body);
  } catch (error) {
    // Only a client error is a final answer worth replaying; anything else may be retried.
    if (error instanceof DomainError) {
      await sql`UPDATE http_idempotency SET status_code = ${statusOfKind[error.kind]}, body = ${sql.json({ message: error.message })}
                WHERE scope = ${scope} AND key = ${key}`;
    } else {
      await sql`DELETE FROM http_idempotency WHERE scope = ${scope} AND key = ${key} AND status_code IS NULL`;
    }
    throw error;
  }
}

/**
 * The request fingerprint leaves secrets out: a fast hash over a body with a password in it would
 * let anyone with the table guess the password offline.
 */
function withoutSecrets(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutSecrets);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).map(([k, v]) => [
      k,
      /password|code|token|secret/i.test(k) ? '[secret]' : withoutSecrets(v),
    ]),
  );
}
