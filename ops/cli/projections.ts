import { userInfo } from 'node:os';
import { REACTOR_REASON, runnerFollowing, skipParkedEvent } from '../../src/commands/operations/parkedEvents.ts';
import {
  NotParkedError,
  type ParkedEvent,
  type ProjectionRunner,
  type ProjectionStatus,
  type RebuildProgress,
  type ResumeOutcome,
} from '../../src/projections/runner/projectionRunner.ts';
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
            { header: 'PARKED', value: (s) => count(s.parked), align: 'right' },
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
        if (s.parked > 0) {
          notes.push(
            `${s.name}: ${count(s.parked)} parked event(s), newest failure${s.errorEventId ? ` at event ${s.errorEventId}` : ''}: ${s.lastError}` +
              ` (see projections:parked ${s.name})`,
          );
        } else if (s.lastError) {
          notes.push(`${s.name}: ${s.status}${s.errorEventId ? ` at event ${s.errorEventId}` : ''}: ${s.lastError}`);
        }
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

/** Those swapped in before a failure are rebuilt; the others keep their old tables. */
async function outcomesAfterFailure(
  system: System,
  names: readonly string[],
  startedAt: number,
  message: string,
): Promise<RebuildOutcome[]> {
  const rebuilds = new Map((await system.projections.status()).map((s) => [s.name, s.rebuild]));
  return names.map((name) => {
    const rb = rebuilds.get(name);
    const completed = rb?.status === 'completed' && rb.startedAt.getTime() >= startedAt - 1000;
    return {
      name,
      status: completed ? 'completed' : 'failed',
      events: completed ? rb.done : 0,
      total: completed ? rb.total : 0,
      seconds: (Date.now() - startedAt) / 1000,
      eventsPerSecond: completed ? rb.eventsPerSecond : null,
      rows: null,
      error: completed ? null : message,
    };
  });
}

/**
 * Replays the log into fresh tables for the named projectors, all from one read of the log
 * (ProjectionRunner.rebuildAll), reporting progress on stderr.
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
  // Several projections are rebuilt together from one read of the log (ProjectionRunner.rebuildAll).
  const label = names.length === 1 ? (names[0] as string) : target.all ? 'all projections' : names.join(', ');
  const reporter = progressReporter(label, options);
  const startedAt = Date.now();
  try {
    // Each projection replays at its own pace: show the one furthest behind.
    const latest = new Map<string, RebuildProgress>();
    const results = await system.projections.rebuildAll(names, (name, p) => {
      latest.set(name, p);
      if (latest.size < names.length) return;
      const behind = [...latest.values()].reduce((a, b) =>
        b.status !== 'completed' && (a.status === 'completed' || b.done < a.done) ? b : a,
      );
      reporter.update(behind);
    });
    reporter.stop();
    const statuses = await system.projections.status();
    names.forEach((name, i) => {
      const result = results[i] as RebuildProgress;
      outcomes.push({
        name,
        status: 'completed',
        events: result.done,
        total: result.total,
        seconds: ((result.finishedAt?.getTime() ?? Date.now()) - result.startedAt.getTime()) / 1000,
        eventsPerSecond: result.eventsPerSecond,
        rows: statuses.find((s) => s.name === name)?.rows ?? null,
        error: null,
      });
    });
  } catch (error) {
    reporter.stop();
    const message = error instanceof Error ? error.message : String(error);
    writeErr(`Rebuild of ${label} failed: ${message}`);
    outcomes.push(...(await outcomesAfterFailure(system, names, startedAt, message)));
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

/** The runner (projectors or reactors) that follows `name`. */
function runnerOf(system: System, name: string): ProjectionRunner {
  const runner = runnerFollowing([system.projections, system.reactors], name);
  if (runner) return runner;
  const known = [...system.projections.projectors, ...system.reactors.projectors].map((p) => p.name);
  throw new OpsError(`Unknown projection "${name}". Known: ${known.join(', ')}`, EXIT_FAILED, { name, known });
}

function notParked(error: unknown): never {
  if (error instanceof NotParkedError) {
    throw new OpsError(`${error.message} (see projections:parked ${error.projector})`, EXIT_FAILED, {
      projector: error.projector,
      eventId: error.eventId,
    });
  }
  throw error;
}

/** Events parked by one projection or by all, oldest first per projection. */
export async function listParked(system: System, name: string | undefined, options: { skipped: boolean }): Promise<CommandResult> {
  const runners = name === undefined ? [system.projections, system.reactors] : [runnerOf(system, name)];
  const parked: ParkedEvent[] = [];
  for (const runner of runners) parked.push(...(await runner.parked(name, { includeSkipped: options.skipped })));
  return {
    data: parked,
    text: () => {
      if (parked.length === 0) return options.skipped ? 'No parked or skipped events.' : 'No parked events.';
      return [
        table(
          [
            { header: 'PROJECTION', value: (e) => e.projector },
            { header: 'EVENT', value: (e) => e.eventId },
            { header: 'TYPE', value: (e) => e.type },
            { header: 'STREAM', value: (e) => e.streamId, max: 50 },
            { header: 'REV', value: (e) => String(e.revision), align: 'right' },
            { header: 'STATUS', value: (e) => e.status },
            { header: 'TRIES', value: (e) => (e.status === 'blocked' ? '-' : String(e.attempts)), align: 'right' },
            { header: 'PARKED', value: (e) => time(e.parkedAt) },
            {
              header: 'ERROR / REASON',
              value: (e) =>
                e.status === 'skipped'
                  ? `skipped by ${e.actor ?? '?'}: ${e.reason ?? ''}`
                  : e.status === 'blocked'
                    ? 'waits behind the failed event of its stream'
                    : dash(e.error),
              max: 80,
            },
          ],
          parked,
        ),
        '',
        'Retry a stream after a fix: projections:retry <name> <eventId>. Leave one out: projections:skip <name> <eventId> --reason "…".',
      ].join('\n');
    },
  };
}

function describeResume(outcome: ResumeOutcome): string[] {
  const lines = [`Applied ${count(outcome.applied.length)} parked event(s) of stream ${outcome.streamId} in ${outcome.projector}.`];
  if (outcome.error) {
    lines.push(
      `Event ${outcome.failedEventId} failed again: ${outcome.error}`,
      `${count(outcome.stillParked)} event(s) of the stream stay parked.`,
    );
  }
  return lines;
}

/** Applies the parked events of the event's stream again, in order (after a fix). */
export async function retryParked(system: System, name: string, eventId: string): Promise<CommandResult> {
  const outcome = await runnerOf(system, name).retryParked(name, eventId).catch(notParked);
  return { data: outcome, exitCode: outcome.error ? EXIT_FAILED : 0, text: () => describeResume(outcome).join('\n') };
}

/** The operator's name for the record: --actor, else the OS user running the CLI. */
export function defaultActor(env: Record<string, string | undefined> = process.env): string {
  try {
    return env.OPS_ACTOR || userInfo().username;
  } catch {
    return env.USER || 'operator';
  }
}

/**
 * Leaves a parked event out for good: records ParkedEventSkipped (reason, actor) in the log,
 * then applies what waited behind it in its stream.
 */
export async function skipParked(
  system: System,
  name: string,
  eventId: string,
  decision: { reason: string; actor: string },
): Promise<CommandResult> {
  const reason = decision.reason.trim();
  if (!reason) throw new UsageError('--reason must say why the event is skipped');
  const outcome = await skipParkedEvent(
    runnerOf(system, name),
    system.store,
    { projector: name, eventId, reason, actor: decision.actor },
    system.clock.now(),
  ).catch(notParked);
  return {
    data: outcome,
    exitCode: outcome.error ? EXIT_FAILED : 0,
    text: () =>
      [
        `Skipped event ${outcome.skipped.eventId} (${outcome.skipped.type}) in ${name}: ${reason} (recorded as ParkedEventSkipped by ${decision.actor}).`,
        ...(outcome.applied.length > 0 || outcome.error ? describeResume(outcome) : []),
      ].join('\n'),
  };
}
