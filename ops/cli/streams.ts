import { categoryOf, START } from '../../src/adapters/eventstore/eventStore.ts';
import type { System } from '../../src/system.ts';
import { type CommandResult, count, dash, OpsError, table, time } from './output.ts';

export async function listStreams(system: System, options: { category?: string; limit: number }): Promise<CommandResult> {
  const streams = await system.store.listStreams({ category: options.category, limit: options.limit });
  const data = streams.map((s) => ({ streamId: s.streamId, category: s.category, revision: s.revision, updatedAt: s.updatedAt }));
  return {
    data,
    text: () => {
      if (data.length === 0) return options.category ? `No streams in category "${options.category}".` : 'No streams yet.';
      const lines = [
        table(
          [
            { header: 'STREAM', value: (s) => s.streamId },
            { header: 'CATEGORY', value: (s) => s.category },
            { header: 'REVISION', value: (s) => String(s.revision), align: 'right' },
            { header: 'UPDATED', value: (s) => time(s.updatedAt) },
          ],
          data,
        ),
        '',
        `${count(data.length)} stream${data.length === 1 ? '' : 's'}${data.length >= options.limit ? ` (limit ${options.limit} reached: use --limit for more)` : ''}`,
      ];
      return lines.join('\n');
    },
  };
}

/**
 * Every event of a stream as the log holds it: personal fields stay encrypted, because an
 * operator reading the log must never see personal data.
 */
export async function showStream(system: System, streamId: string): Promise<CommandResult> {
  const events = await system.store.readStreamSealed(streamId);
  if (events.length === 0) {
    throw new OpsError(`Unknown stream "${streamId}": it has no events (list them with: npm run ops -- streams:list)`, 1, { streamId });
  }
  const data = {
    streamId,
    category: categoryOf(streamId),
    revision: (events[events.length - 1] as (typeof events)[number]).revision,
    events: events.map((e) => ({
      id: e.id,
      revision: e.revision,
      position: e.position,
      type: e.type,
      recordedAt: e.recordedAt,
      metadata: {
        actorId: e.metadata.actorId ?? null,
        actorRole: e.metadata.actorRole ?? null,
        commandId: e.metadata.commandId ?? null,
        correlationId: e.metadata.correlationId ?? null,
        causationId: e.metadata.causationId ?? null,
      },
      data: e.data,
    })),
  };
  return {
    data,
    text: () => {
      const lines = [
        `Stream ${streamId} (category ${data.category}, revision ${data.revision}, ${count(events.length)} event${events.length === 1 ? '' : 's'})`,
        '',
      ];
      for (const e of data.events) {
        const m = e.metadata;
        lines.push(`#${e.revision}  ${e.type}  ${time(e.recordedAt)}  position ${e.position || '(start)'}`);
        lines.push(`    event ${e.id}`);
        lines.push(`    actor ${dash(m.actorId)} (role ${dash(m.actorRole)})  command ${dash(m.commandId)}`);
        lines.push(`    correlation ${dash(m.correlationId)}  causation ${dash(m.causationId)}`);
        lines.push(`    data ${JSON.stringify(e.data)}`);
        lines.push('');
      }
      lines.push('Personal data is shown encrypted, as stored.');
      return lines.join('\n');
    },
  };
}

export async function countEvents(system: System): Promise<CommandResult> {
  const total = await system.store.countAfter(START);
  // Per category only where it is one cheap query (the PostgreSQL stream table); EventStoreDB
  // would need a scan of the whole log.
  let byCategory: { category: string; streams: number; events: number }[] | null = null;
  if (system.rawStore.kind === 'postgres') {
    const rows = await system.sql<{ category: string; streams: bigint; events: bigint }[]>`
      SELECT category, count(*) AS streams, sum(revision + 1) AS events FROM es_streams GROUP BY category ORDER BY category`;
    byCategory = rows.map((r) => ({ category: r.category, streams: Number(r.streams), events: Number(r.events) }));
  }
  return {
    data: { total, byCategory },
    text: () => {
      const lines = [`${count(total)} event${total === 1 ? '' : 's'} in the log`];
      if (byCategory && byCategory.length > 0) {
        lines.push(
          '',
          table(
            [
              { header: 'CATEGORY', value: (r) => r.category },
              { header: 'STREAMS', value: (r) => count(r.streams), align: 'right' },
              { header: 'EVENTS', value: (r) => count(r.events), align: 'right' },
            ],
            byCategory,
          ),
        );
      } else if (!byCategory) {
        lines.push('(per-category counts are only available with the PostgreSQL event store)');
      }
      return lines.join('\n');
    },
  };
}
