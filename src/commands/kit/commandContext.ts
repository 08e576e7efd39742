import { createHash, randomUUID } from 'node:crypto';
import type { EventMetadata } from '../../adapters/eventstore/eventStore.ts';

/** Who asked, from where, and as part of what: becomes every appended event's metadata. */
export interface CommandContext {
  commandId: string;
  actorId: string | null;
  actorRole: string | null;
  correlationId: string;
  causationId: string | null;
  ip: string | null;
  userAgent: string | null;
  now: Date;
}

/**
 * `now` is required: it comes from the system's clock (src/adapters/clock) — routes
 * (`contextFrom`), modules, sagas, workers and seeds pass it — so no command ever reads the real
 * time itself and a test server that moves its clock moves every decision. Tests pass a fixed
 * instant or their own clock's.
 */
export function commandContext(partial: Partial<CommandContext> & Pick<CommandContext, 'now'>): CommandContext {
  const commandId = partial.commandId ?? randomUUID();
  return {
    commandId,
    actorId: partial.actorId ?? null,
    actorRole: partial.actorRole ?? null,
    correlationId: partial.correlationId ?? commandId,
    causationId: partial.causationId ?? null,
    ip: partial.ip ?? null,
    userAgent: partial.userAgent ?? null,
    now: partial.now,
  };
}

export function metadataOf(ctx: CommandContext): EventMetadata {
  return {
    actorId: ctx.actorId,
    actorRole: ctx.actorRole,
    commandId: ctx.commandId,
    correlationId: ctx.correlationId,
    causationId: ctx.causationId,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  };
}

/**
 * A name-based (v5-style) UUID: the same name always gives the same id. Kept by hand rather than
 * the `uuid` package's v5: that hashes a 16-byte namespace before the name, this hashes the name
 * alone, so no namespace reproduces the ids already stored (streams, events, jobs derive from
 * them). The known outputs are pinned in commandContext.test.ts.
 */
export function deterministicUuid(name: string): string {
  const h = createHash('sha1').update(name).digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x50;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Event ids derive from the command id, so a retried command appends nothing new. */
export const eventIdFor = (commandId: string, index: number) => deterministicUuid(`${commandId}/${index}`);
