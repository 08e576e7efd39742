import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { AlertListQuery } from '../../domain/operations/alertApi.ts';
import { ALERT_NOT_FOUND } from '../../domain/operations/alertDecider.ts';
import type { ParkedEventView, ParkedOutcomeView, ProjectionView } from '../../domain/operations/projectionApi.ts';
import {
  alertView,
  findAlert,
  isNotParked,
  lastEventTimes,
  listAlerts,
  type OperatedRunner,
  openAlerts,
  type ParkedEvent,
  type ProjectionStatus,
  type ResumeOutcome,
  rebuildUnderWay,
  withAlertSubjects,
} from '../../projections/operations/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { REACTOR_REASON, retryParkedEvent, runnerFollowing, skipParkedEvent } from './parkedEvents.ts';
import { alertHandlers, resolveAlert } from './resolveAlert.ts';

/** The badge keeps to a readable number; the Alerts tab pages through the rest. */
const BADGE_LIMIT = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const UNKNOWN_PROJECTION = 'Unknown projection';
const NOT_PARKED = 'That event is not parked by this projection';

function projectionView(s: ProjectionStatus, lastEventAt: Date | null): ProjectionView {
  const rb = s.rebuild;
  const rebuilding = rb !== null && (rb.status === 'requested' || rb.status === 'running');
  return {
    name: s.name,
    kind: s.kind === 'reactor' ? 'reactor' : 'projector',
    rebuildable: s.kind !== 'reactor',
    position: s.position,
    lastEventAt: lastEventAt?.toISOString() ?? null,
    lagEvents: s.lagEvents,
    lagMs: s.lagMs,
    rows: s.rows,
    status: rebuilding ? 'rebuilding' : s.status,
    lastError: s.lastError,
    parked: s.parked,
    rebuild: rb && {
      rebuildId: rb.rebuildId,
      status: rb.status,
      phase: rb.phase,
      done: rb.done,
      total: rb.total,
      eventsPerSecond: rb.eventsPerSecond,
      stepDone: rb.stepDone,
      stepTotal: rb.stepTotal,
      startedAt: rb.startedAt.toISOString(),
      finishedAt: rb.finishedAt?.toISOString() ?? null,
      error: rb.error,
    },
  };
}

const parkedView = (e: ParkedEvent): ParkedEventView => ({
  projector: e.projector,
  eventId: e.eventId,
  position: e.position,
  streamId: e.streamId,
  revision: e.revision,
  type: e.type,
  status: e.status,
  error: e.error,
  attempts: e.attempts,
  parkedAt: e.parkedAt.toISOString(),
});

const outcomeView = (o: ResumeOutcome): ParkedOutcomeView => ({
  projector: o.projector,
  streamId: o.streamId,
  applied: o.applied,
  stillParked: o.stillParked,
  failedEventId: o.failedEventId,
  error: o.error,
});

/**
 * What the operations feature needs, given by system.ts: the store and the read models, the two
 * projection runners (the projectors', the reactors') and the rebuild requests, which the process
 * running the projectors carries out.
 */
export interface OperationsModuleDeps {
  sql: Sql;
  store: EventStore;
  projections: OperatedRunner;
  reactors: OperatedRunner;
  rebuilds: { request(names: readonly string[], rebuildId: string): Promise<void> };
}

/**
 * The operations feature (issue 12 §4, §7), built once by system.ts: the console's alerts (the
 * badge's list, the tab's page, resolving one with a note) and its projections (status and lag,
 * rebuilds requested, the parked events an operator retries or skips with a reason, recorded as
 * events).
 */
export function operationsModule(deps: OperationsModuleDeps) {
  const { sql, store, projections, reactors, rebuilds } = deps;
  const handlers = alertHandlers(store);
  const runners = [projections, reactors];
  const runnerOf = (name: string): OperatedRunner => {
    const runner = runnerFollowing(runners, name);
    if (!runner) throw new DomainError(UNKNOWN_PROJECTION, 'not_found');
    return runner;
  };
  const notParked = (error: unknown): never => {
    if (isNotParked(error)) throw new DomainError(NOT_PARKED, 'not_found');
    throw error;
  };
  const requestRebuild = async (names: string[], rebuildId: string) => {
    try {
      await rebuilds.request(names, rebuildId);
    } catch (error) {
      const underWay = rebuildUnderWay(error);
      if (underWay) throw new DomainError(`A rebuild of ${underWay.join(', ')} is already under way`, 'conflict');
      throw error;
    }
    return { rebuildId, projections: names };
  };

  return {
    /** The alerts nobody resolved yet, newest first, with what they are about (the badge's list). */
    unresolvedAlerts: async () => withAlertSubjects(sql, (await openAlerts(sql, BADGE_LIMIT)).map(alertView)),
    /** One page of alerts, filtered and sorted. */
    alerts: (query: AlertListQuery) => listAlerts(sql, query),
    /** Resolves an alert with what was done (409 when it is resolved already). */
    async resolveAlert(alertId: string, note: string, ctx: CommandContext) {
      const raised = UUID.test(alertId) ? await findAlert(sql, alertId) : null;
      return resolveAlert(handlers, { alertId, note, raised: raised && { resolved: raised.is_resolved } }, ctx);
    },
    /** One alert as the console shows it (after the write's read-your-writes); a 404 when it is not there. */
    async alert(alertId: string) {
      const shown = await findAlert(sql, alertId);
      if (!shown) throw new DomainError(ALERT_NOT_FOUND, 'not_found');
      return alertView(shown);
    },

    /** Every projection and reactor: position, lag, rows, status, last error, parked events and rebuild progress. */
    async projectionStatuses() {
      const statuses = [...(await projections.status()), ...(await reactors.status())];
      const lastEventAt = await lastEventTimes(
        sql,
        statuses.map((s) => s.name),
      );
      return statuses.map((s) => projectionView(s, lastEventAt.get(s.name) ?? null));
    },
    /** Asks for every projection to be rebuilt (reactors never are); 409 while a rebuild runs. */
    rebuildAll: (rebuildId: string) =>
      requestRebuild(
        projections.projectors.map((p) => p.name),
        rebuildId,
      ),
    /** Asks for one projection to be rebuilt: 404 for an unknown name, 409 for a reactor or while a rebuild runs. */
    rebuild(name: string, rebuildId: string) {
      if (runnerOf(name) !== projections) throw new DomainError(`${name} is a reactor: ${REACTOR_REASON}`, 'conflict');
      return requestRebuild([name], rebuildId);
    },
    /** The parked events of one projection or reactor (404 for an unknown name), or of all, oldest first. */
    async parkedEvents(name: string | undefined) {
      const selected = name === undefined ? runners : [runnerOf(name)];
      const parked: ParkedEvent[] = [];
      for (const runner of selected) parked.push(...(await runner.parked(name)));
      return parked.map(parkedView);
    },
    /** Applies a parked event's stream again, recording who asked and why; 404 when it is not parked there. */
    async retryParked(input: { projector: string; eventId: string; reason: string }, ctx: CommandContext) {
      const outcome = await retryParkedEvent(runnerOf(input.projector), store, { ...input, actor: ctx.actorId }, ctx).catch(notParked);
      if (!outcome) throw new DomainError(NOT_PARKED, 'not_found');
      return outcomeView(outcome);
    },
    /** Leaves a parked event out for good, recording who asked and why; 404 when it is not parked there. */
    async skipParked(input: { projector: string; eventId: string; reason: string }, ctx: CommandContext) {
      const outcome = await skipParkedEvent(runnerOf(input.projector), store, { ...input, actor: ctx.actorId }, ctx.now, {
        actorId: ctx.actorId,
        actorRole: ctx.actorRole,
      }).catch(notParked);
      return outcomeView(outcome);
    },
  };
}

export type OperationsModule = ReturnType<typeof operationsModule>;
