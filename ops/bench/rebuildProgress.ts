/**
 * Rebuild progress gap: the longest time between two progress updates a full rebuild reports
 * (issue 12's console benchmark asks for at least one a second). The console's way is measured: a
 * rebuild of every projection requested as the console does (`system.rebuilds`), run by the
 * process's RebuildWorker, its progress read from `projection_rebuilds` as
 * GET /api/admin/projections reads it.
 *
 * `measureRebuildProgressGap(system)` is for the console benchmark (a system in `all` or
 * `projector` mode, the log already filled). Run alone, `tsx ops/bench/rebuildProgress.ts
 * [--events N] [--json]` fills a fresh database (DATABASE_URL's server, else an embedded
 * PostgreSQL under .tmp/bench-pg) with N events (default 200,000) and measures once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { loadConfig } from '../../src/adapters/config/config.ts';
import { startEmbeddedPostgres } from '../../src/adapters/db/embeddedPostgres.ts';
import type { System } from '../../src/system.ts';

export interface RebuildProgressGap {
  /** Events in the log when the rebuild started. */
  events: number;
  projections: number;
  /** From the request to the last projection swapped in. */
  totalMs: number;
  /** The longest time between two changes of the reported figures (events done, index build progress, phase, status) of any projection. */
  maxGapMs: number;
  /** The longest time between two writes of the progress rows (the heartbeat included). */
  heartbeatMaxGapMs: number;
  updates: number;
  /** What changed across the longest gap: the projections whose figures moved, before → after. */
  worstGap: string;
}

interface Row {
  name: string;
  status: string;
  phase: string | null;
  done: string;
  step_done: string | null;
  heartbeat_at: Date | null;
}

/**
 * Requests a rebuild of every projection and samples its progress every `sampleMs` until all have
 * ended. Throws when the rebuild fails.
 */
export async function measureRebuildProgressGap(
  system: Pick<System, 'sql' | 'store' | 'projections' | 'rebuilds'>,
  options: { sampleMs?: number; timeoutMs?: number } = {},
): Promise<RebuildProgressGap> {
  const sampleMs = options.sampleMs ?? 20;
  const names = system.projections.projectors.map((p) => p.name);
  const events = await system.store.countAfter('');
  const rebuildId = randomUUID();
  const started = performance.now();
  await system.rebuilds.request(names, rebuildId);
  const deadline = started + (options.timeoutMs ?? 30 * 60_000);
  let lastFigures = '';
  let lastBeat = '';
  let lastChange = started;
  let lastBeatAt = started;
  let maxGapMs = 0;
  let heartbeatMaxGapMs = 0;
  let updates = 0;
  let worstGap = '';
  for (;;) {
    const rows = await system.sql<Row[]>`
      SELECT name, status, phase, done::text, step_done::text, heartbeat_at FROM projection_rebuilds WHERE rebuild_id = ${rebuildId} ORDER BY name`;
    const now = performance.now();
    const figures = rows.map((r) => `${r.name}:${r.status}:${r.phase}:${r.done}:${r.step_done ?? ''}`).join('|');
    if (figures !== lastFigures) {
      if (now - lastChange > maxGapMs) worstGap = describeChange(lastFigures, figures);
      maxGapMs = Math.max(maxGapMs, now - lastChange);
      lastChange = now;
      lastFigures = figures;
      updates++;
    }
    const beat = rows.map((r) => r.heartbeat_at?.getTime() ?? 0).join('|');
    if (beat !== lastBeat) {
      heartbeatMaxGapMs = Math.max(heartbeatMaxGapMs, now - lastBeatAt);
      lastBeatAt = now;
      lastBeat = beat;
    }
    const failed = rows.find((r) => r.status === 'failed');
    if (failed) throw new Error(`The rebuild of ${failed.name} failed`);
    if (rows.length === names.length && rows.every((r) => r.status === 'completed')) {
      return {
        events,
        projections: names.length,
        totalMs: Math.round(now - started),
        maxGapMs: Math.round(maxGapMs),
        heartbeatMaxGapMs: Math.round(heartbeatMaxGapMs),
        updates,
        worstGap,
      };
    }
    if (now > deadline) throw new Error('The rebuild did not end in time');
    await new Promise((r) => setTimeout(r, sampleMs));
  }
}

function describeChange(before: string, after: string): string {
  const old = new Set(before.split('|'));
  return after
    .split('|')
    .filter((f) => !old.has(f))
    .join(', ');
}

/** Fills the log with `count` events the projections read (job failures: the alerts and the audit log). */
async function fill(system: System, count: number): Promise<void> {
  const perAppend = 500;
  const writers = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (;;) {
        const from = next;
        next += perAppend;
        if (from >= count) return;
        const n = Math.min(perAppend, count - from);
        const events = Array.from({ length: n }, () => ({
          id: randomUUID(),
          type: 'JobGaveUp',
          data: { queue: 'bench', jobId: randomUUID(), error: 'bench failure', attempts: 3, gaveUpAt: new Date().toISOString() },
          metadata: { commandId: randomUUID(), actorRole: 'system' },
        }));
        await system.rawStore.append(`jobFailure-bench-${randomUUID()}`, events, 'no_stream');
      }
    }),
  );
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const at = process.argv.indexOf('--events');
  const count = at > 0 ? Number(process.argv[at + 1]) : 200_000;
  const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres('.tmp/bench-pg');
  const serverUrl = process.env.DATABASE_URL ?? (embedded?.url as string);
  const dbName = `topmark_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  const { createSystem } = await import('../../src/system.ts');
  const system = await createSystem(loadConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: 'warn', NODE_ENV: 'test' }), 'all');
  try {
    say(`filling the log with ${count} events…`);
    await fill(system, count);
    await system.projections.catchUp();
    say('rebuilding every projection as the console asks…');
    const result = await measureRebuildProgressGap(system);
    if (json) process.stdout.write(`${JSON.stringify({ rebuildProgressMaxGapMs: result.maxGapMs, ...result })}\n`);
    else {
      say(
        `${result.events} events, ${result.projections} projections rebuilt in ${result.totalMs} ms: ` +
          `longest gap between progress updates ${result.maxGapMs} ms (${result.updates} updates; heartbeat gap ${result.heartbeatMaxGapMs} ms; longest gap ended with ${result.worstGap})`,
      );
    }
  } finally {
    await system.close();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await embedded?.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
