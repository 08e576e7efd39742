import type { ProjectionStatus, RebuildProgress } from '../../src/projections/runner/projectionRunner.ts';
import type { System } from '../../src/system.ts';
import { type CommandResult, count, dash, duration, EXIT_FAILED, OpsError, rate, table, time, UsageError, writeErr } from './output.ts';
import { progressReporter } from './progress.ts';

export async function projectionsStatus(system: System): Promise<CommandResult> {
  const statuses: ProjectionStatus[] = [...(await system.projections.status()), ...(await system.reactors.status())];
  return {
    data: statuses,
    text: () => {
      if (statuses.length === 0) return 'No projections.';
      const lines = [
        table(
          [
            { header: 'NAME', value: (s) => s.name },
            { header: 'KIND', value: (s) => s.kind },
            { header: 'STATUS', value: (s) => s.status },
            { header: 'LAG', value: (s) => `${count(s.lagEvents)} ev`, align: 'right' },
            { header: 'LAG TIME', value: (s) => (s.lagEvents > 0 ? duration(s.lagMs) : '-'), align: 'right' },
            { header: 'ROWS', value: (s) => (s.rows === null ? '-' : count(s.rows)), align: 'right' },
            { header: 'PROCESSED', value: (s) => count(s.eventsProcessed), align: 'right' },
            { header: 'UPDATED', value: (s) => time(s.updatedAt) },
            { header: 'POSITION', value: (s) => s.position || '(start)' },
          ],
          statuses,
        ),
      ];
      const notes: string[] = [];
      for (const s of statuses) {
        if (s.lastError) notes.push(`${s.name}: ${s.status}${s.errorEventId ? ` at event ${s.errorEventId}` : ''}: ${s.lastError}`);
        if (s.rebuild) notes.push(`${s.name}: ${describeRebuild(s.rebuild)}`);
      }
      if (notes.length > 0) lines.push('', ...notes);
      return lines.join('\n');
    },
  };
}

function describeRebuild(r: RebuildProgress): string {
  const percent = r.total > 0 ? Math.floor((r.done / r.total) * 100) : 100;
  const when = r.finishedAt ? `started ${time(r.startedAt)}, finished ${time(r.finishedAt)}` : `started ${time(r.startedAt)}`;
  return (
    `rebuild ${r.status}: ${count(r.done)}/${count(r.total)} events (${percent}%), ${rate(r.eventsPerSecond)}, ${when}` +
    (r.error ? `; error: ${r.error}` : '')
  );
}

export interface RebuildOutcome {
  name: string;
  status: 'completed' | 'failed';
  events: number;
  total: number;
  seconds: number;
  eventsPerSecond: number | null;
  rows: number | null;
  error: string | null;
}

const REACTOR_REASON = 'reactors (sagas) cannot be rebuilt: replaying them would repeat their side effects (mails, jobs)';

/**
 * Replays the log into fresh tables for each named projector (ProjectionRunner.rebuild), one
 * after the other, reporting progress on stderr.
 */
export async function rebuildProjections(
  system: System,
  target: { names: string[]; all: boolean },
  options: { tty: boolean },
): Promise<CommandResult> {
  const projectors = system.projections.projectors.map((p) => p.name);
  const reactors = system.reactors.projectors.map((p) => p.name);
  if (target.all === target.names.length > 0) {
    throw new UsageError(`Name the projections to rebuild, or use --all (projections: ${projectors.join(', ')})`, { known: projectors });
  }
  for (const name of target.names) {
    if (reactors.includes(name)) throw new OpsError(`${name} is a reactor: ${REACTOR_REASON}`, EXIT_FAILED, { name, kind: 'reactor' });
    if (!projectors.includes(name)) {
      throw new OpsError(`Unknown projection "${name}". Known projections: ${projectors.join(', ')}`, EXIT_FAILED, {
        name,
        known: projectors,
        reactors,
      });
    }
  }
  const names = target.all ? projectors : [...new Set(target.names)];
  const skipped = target.all ? reactors.map((name) => ({ name, kind: 'reactor', reason: REACTOR_REASON })) : [];

  const outcomes: RebuildOutcome[] = [];
  for (const name of names) {
    const reporter = progressReporter(name, options);
    const startedAt = Date.now();
    try {
      const result = await system.projections.rebuild(name, (p) => reporter.update(p));
      reporter.stop();
      const [status] = (await system.projections.status()).filter((s) => s.name === name);
      const seconds = ((result.finishedAt?.getTime() ?? Date.now()) - result.startedAt.getTime()) / 1000;
      outcomes.push({
        name,
        status: 'completed',
        events: result.done,
        total: result.total,
        seconds,
        eventsPerSecond: result.eventsPerSecond,
        rows: status?.rows ?? null,
        error: null,
      });
    } catch (error) {
      reporter.stop();
      const message = error instanceof Error ? error.message : String(error);
      writeErr(`Rebuild of ${name} failed: ${message}`);
      outcomes.push({
        name,
        status: 'failed',
        events: 0,
        total: 0,
        seconds: (Date.now() - startedAt) / 1000,
        eventsPerSecond: null,
        rows: null,
        error: message,
      });
    }
  }
  const failed = outcomes.filter((o) => o.status === 'failed').length;
  return {
    data: { rebuilt: outcomes, skipped },
    exitCode: failed > 0 ? EXIT_FAILED : 0,
    text: () => {
      const lines = [
        table(
          [
            { header: 'PROJECTION', value: (o) => o.name },
            { header: 'RESULT', value: (o) => o.status },
            { header: 'EVENTS', value: (o) => count(o.events), align: 'right' },
            { header: 'SECONDS', value: (o) => o.seconds.toFixed(2), align: 'right' },
            { header: 'RATE', value: (o) => rate(o.eventsPerSecond), align: 'right' },
            { header: 'ROWS', value: (o) => dash(o.rows === null ? null : count(o.rows)), align: 'right' },
            { header: 'ERROR', value: (o) => dash(o.error), max: 80 },
          ],
          outcomes,
        ),
      ];
      for (const s of skipped) lines.push('', `Skipped ${s.name}: ${s.reason}.`);
      return lines.join('\n');
    },
  };
}
