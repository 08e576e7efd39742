import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { Projector } from './projector.ts';

/** What an alert about a parked event names. */
export type ParkedEventRef = Pick<RecordedEvent, 'id' | 'type' | 'streamId' | 'position'>;
export type ParkedCallback = (projector: string, event: ParkedEventRef, error: string) => Promise<void>;

export interface RunnerOptions {
  kind?: 'projector' | 'reactor';
  batchSize?: number;
  pollMs?: number;
  log?: (message: string, detail?: Record<string, unknown>) => void;
  /**
   * Told about each event a projector could not apply and parked (the caller raises the alert).
   * Called again after a restart when an earlier call did not complete: it must be idempotent.
   */
  onParked?: ParkedCallback;
  /** @deprecated The former name of `onParked`: a poison event no longer stops a projector, it is parked. */
  onStopped?: ParkedCallback;
  /** How long a projector whose batch failed with a transient error waits before it is tried again. */
  retryMs?: number;
  /**
   * Tell other processes by NOTIFY when a checkpoint moves (checkpointNotices.ts): for a process
   * whose requests are served elsewhere (the projector and worker processes). Off where the API
   * runs in the same process (`npm start`): its waiters are told directly, and a NOTIFY per
   * checkpoint move measured slower bookings there.
   */
  announceCheckpoints?: boolean;
}

/**
 * What the runner's parts (follower, parked events, rebuild) share: one runner's database, log,
 * projectors and settings, and the wake-up of its follower.
 */
export interface RunnerContext {
  readonly sql: Sql;
  readonly store: EventStore;
  readonly projectors: readonly Projector[];
  readonly kind: 'projector' | 'reactor';
  readonly batchSize: number;
  readonly options: RunnerOptions;
  readonly onParked: ParkedCallback | undefined;
  /** Wakes the follower: parked events were applied, or a rebuild swapped its tables in. */
  wake(): void;
}
