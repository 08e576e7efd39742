import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import type { CheckpointRow } from './checkpoints.ts';
import type { RebuildPhase, RebuildProgress } from './rebuild.ts';

/** What the console and the health check show of each projector and reactor. */
export interface ProjectionStatus {
  name: string;
  kind: string;
  position: Position;
  lagEvents: number;
  lagMs: number;
  rows: number | null;
  status: string;
  /** The error of the newest parked event (null when nothing is parked). */
  lastError: string | null;
  errorEventId: string | null;
  /** Events parked: those that failed and those waiting behind them in their stream. */
  parked: number;
  eventsProcessed: number;
  updatedAt: Date;
  /** `stepDone`/`stepTotal`: how far the indexing phase is (PostgreSQL's index build progress), else null. */
  rebuild: (RebuildProgress & { rebuildId: string | null; stepDone: number | null; stepTotal: number | null }) | null;
}

/** A row of `projection_rebuilds`. */
interface RebuildRow {
  name: string;
  status: string;
  done: bigint;
  total: bigint;
  events_per_second: number | null;
  started_at: Date;
  finished_at: Date | null;
  error: string | null;
  phase: RebuildPhase | null;
  rebuild_id: string | null;
  step_done: bigint | null;
  step_total: bigint | null;
}

function rebuildOf(rb: RebuildRow): NonNullable<ProjectionStatus['rebuild']> {
  return {
    status: rb.status,
    phase: rb.phase ?? (rb.status === 'running' ? 'replaying' : rb.status === 'completed' ? 'completed' : 'failed'),
    rebuildId: rb.rebuild_id,
    done: Number(rb.done),
    total: Number(rb.total),
    eventsPerSecond: rb.events_per_second,
    stepDone: rb.step_done === null ? null : Number(rb.step_done),
    stepTotal: rb.step_total === null ? null : Number(rb.step_total),
    startedAt: rb.started_at,
    finishedAt: rb.finished_at,
    error: rb.error,
  };
}

export async function projectionStatus(
  sql: Sql,
  store: EventStore,
  names: readonly string[] | null,
  tablesOf: (name: string) => readonly string[],
): Promise<ProjectionStatus[]> {
  const rows = names
    ? await sql<CheckpointRow[]>`SELECT * FROM projection_checkpoints WHERE name = ANY(${names as string[]}) ORDER BY kind, name`
    : await sql<CheckpointRow[]>`SELECT * FROM projection_checkpoints ORDER BY kind, name`;
  const rebuilds = await sql<RebuildRow[]>`SELECT * FROM projection_rebuilds`;
  const parkedCounts = await sql<{ projector: string; parked: bigint }[]>`
    SELECT projector, count(*) AS parked FROM parked_events WHERE status IN ('failed', 'blocked') GROUP BY projector`.catch(
    (error: { code?: string }) => {
      if (error?.code === '42P01') return []; // no runner has set up yet
      throw error;
    },
  );
  const out: ProjectionStatus[] = [];
  for (const row of rows) {
    const lagEvents = await store.countAfter(row.position);
    const [next] = lagEvents > 0 ? await store.readAll(row.position, 1) : [];
    let rows: number | null = null;
    const tables = tablesOf(row.name);
    if (tables.length > 0) {
      rows = 0;
      for (const t of tables) {
        const [c] = await sql.unsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM public.${t}`).catch(() => [{ count: 0n }]);
        rows += Number(c?.count ?? 0);
      }
    }
    const rb = rebuilds.find((r) => r.name === row.name);
    out.push({
      name: row.name,
      kind: row.kind,
      position: row.position,
      lagEvents,
      lagMs: next ? Math.max(0, Date.now() - next.recordedAt.getTime()) : 0,
      rows,
      status: row.status,
      lastError: row.last_error,
      errorEventId: row.error_event_id,
      parked: Number(parkedCounts.find((c) => c.projector === row.name)?.parked ?? 0),
      eventsProcessed: Number(row.events_processed),
      updatedAt: row.updated_at,
      rebuild: rb ? rebuildOf(rb) : null,
    });
  }
  return out;
}
