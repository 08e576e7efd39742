import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { ensureCheckpoint, parkedEventsDdl } from './checkpoints.ts';
import { Follower } from './follower.ts';
import { PARKED, type ParkedEvent, ParkedEvents, type ResumeOutcome, type SkipOutcome } from './parking.ts';
import type { Projector } from './projector.ts';
import { type RebuildProgress, rebuildAll } from './rebuild.ts';
import type { RunnerContext, RunnerOptions } from './runnerContext.ts';
import { type ProjectionStatus, projectionStatus } from './status.ts';

// The runner's public face: importers take everything from here, whichever file of the runner holds it.
export { isTransient } from './errorClassification.ts';
export { watchIndexBuild } from './indexBuilds.ts';
export { NotParkedError, type ParkedEvent, type ResumeOutcome, type SkipOutcome } from './parking.ts';
export { type KnownProjection, type KnownProjections, UnknownProjectionError, waitForProjections } from './readYourWrites.ts';
export type { RebuildPhase, RebuildProgress } from './rebuild.ts';
export type { ParkedCallback, ParkedEventRef, RunnerOptions } from './runnerContext.ts';
export { type ProjectionStatus, projectionStatus } from './status.ts';

/**
 * Keeps a list of projectors (or reactors) up with the log, one runner per kind per process. Its
 * parts, a file each: the follower (follower.ts) applies the log as it grows, parking what cannot
 * be applied (parking.ts) for an operator to retry or skip; a rebuild (rebuild.ts) replays the
 * log from one shared read (sharedReader.ts) into fresh tables and swaps them in; the status
 * (status.ts) is what the console shows; a request waits for its own write with readYourWrites.ts.
 */
export class ProjectionRunner {
  private readonly context: RunnerContext;
  private readonly follower: Follower;
  private readonly parkedEvents: ParkedEvents;

  constructor(
    sql: Sql,
    store: EventStore,
    readonly projectors: readonly Projector[],
    options: RunnerOptions = {},
  ) {
    this.context = {
      sql,
      store,
      projectors,
      kind: options.kind ?? 'projector',
      batchSize: options.batchSize ?? 1000,
      options,
      onParked: options.onParked ?? options.onStopped,
      wake: () => this.follower.wake(),
    };
    this.parkedEvents = new ParkedEvents(this.context);
    this.follower = new Follower(this.context, this.parkedEvents);
  }

  /** Creates tables and checkpoints; does not start following. */
  async setup(): Promise<void> {
    await this.context.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtext('topmark:parked_events'))`;
      await tx.unsafe(parkedEventsDdl(PARKED));
    });
    for (const p of this.context.projectors) {
      await this.context.sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`setup:${p.name}`}))`;
        await p.setup(tx);
        for (const index of p.indexes ?? []) await tx.unsafe(index);
      });
      await ensureCheckpoint(this.context.sql, p.name, this.context.kind);
      // Stopped by an earlier version at a poison event: resume; the event is met again and parked.
      await this.context.sql`UPDATE projection_checkpoints
                     SET status = 'running', last_error = NULL, error_event_id = NULL, error_position = NULL, updated_at = now()
                     WHERE name = ${p.name} AND status = 'failed'`;
    }
  }

  async start(): Promise<void> {
    await this.setup();
    this.follower.start();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
  }

  /** Brings the named projectors up to every event committed before the call, in this process (see `Follower.catchUp`). */
  async catchUp(names: readonly string[] = this.projectors.map((p) => p.name), timeoutMs = 60_000): Promise<void> {
    await this.follower.catchUp(names, timeoutMs);
  }

  async status(): Promise<ProjectionStatus[]> {
    const names = this.projectors.map((p) => p.name);
    return projectionStatus(
      this.context.sql,
      this.context.store,
      names,
      (name) => this.projectors.find((p) => p.name === name)?.tables ?? [],
    );
  }

  /** Parked events of this runner's projectors (or of one), oldest first; skipped ones only when asked. */
  parked(name?: string, options: { includeSkipped?: boolean } = {}): Promise<ParkedEvent[]> {
    return this.parkedEvents.list(name, options);
  }

  /**
   * Applies the parked events of the stream of `eventId` again, in order (after a fix). Those
   * applied are removed; at the first that fails again the rest stay parked, with its new error.
   */
  retryParked(name: string, eventId: string): Promise<ResumeOutcome> {
    return this.parkedEvents.retry(name, eventId);
  }

  /**
   * Leaves a parked event out for good, with the operator's reason. `record` runs first, inside
   * the transaction that holds the checkpoint lock (it records the decision as an event; it must
   * be idempotent, since a failure after it lets the operator run the skip again). The events
   * parked behind it in its stream are then applied (or stay parked behind the next failure).
   */
  skipParked(
    name: string,
    eventId: string,
    decision: { reason: string; actor: string | null },
    record?: (event: ParkedEvent) => Promise<void>,
  ): Promise<SkipOutcome> {
    return this.parkedEvents.skip(name, eventId, decision, record);
  }

  /**
   * Replays the whole log into fresh tables in a schema of their own while the live projector
   * keeps serving the old ones, then swaps them in under the checkpoint lock. Reactors are never
   * rebuilt: replaying them would fire their side effects again.
   */
  async rebuild(name: string, onProgress: (p: RebuildProgress) => void = () => {}): Promise<RebuildProgress> {
    const [result] = await this.rebuildAll([name], (_name, p) => onProgress(p));
    return result as RebuildProgress;
  }

  /** Rebuilds several projectors from one read of the log, each swapping in when done (see rebuild.ts). */
  rebuildAll(
    names: readonly string[] = this.projectors.map((p) => p.name),
    onProgress: (name: string, progress: RebuildProgress) => void = () => {},
  ): Promise<RebuildProgress[]> {
    return rebuildAll(this.context, this.parkedEvents, names, onProgress);
  }
}
