import type { Sql } from '../../adapters/db/db.ts';
import { NotParkedError, type ProjectionRunner } from '../runner/projectionRunner.ts';
import { RebuildInProgressError } from '../runner/rebuildRequests.ts';

export type { ParkedEvent, ProjectionStatus, ResumeOutcome, SkipOutcome } from '../runner/projectionRunner.ts';
/**
 * What the operations feature reads: the alerts read model (alerts/queries.ts), and the projection
 * runners as the console sees them — their status and parked events, when each checkpoint's last
 * event was recorded, and the runners' refusals in words the module can answer with.
 */
export { type Alert, alertView, findAlert, listAlerts, openAlerts, withAlertSubjects } from './alerts/queries.ts';

/** A projection runner (the projectors', or the reactors') as the console operates it. */
export type OperatedRunner = Pick<ProjectionRunner, 'projectors' | 'status' | 'parked' | 'retryParked' | 'skipParked'>;

/** When each named checkpoint's last applied event was recorded (the console shows that, not the 40-digit position). */
export async function lastEventTimes(sql: Sql, names: readonly string[]): Promise<Map<string, Date | null>> {
  const checkpoints = await sql<{ name: string; last_event_at: Date | null }[]>`
    SELECT name, last_event_at FROM projection_checkpoints WHERE name = ANY(${names as string[]}::text[])`;
  return new Map(checkpoints.map((c) => [c.name, c.last_event_at]));
}

/** Whether a runner refused because the event is not parked by that projection. */
export const isNotParked = (error: unknown): boolean => error instanceof NotParkedError;

/** The projections whose rebuild is already under way when a rebuild request was refused for that; else null. */
export const rebuildUnderWay = (error: unknown): readonly string[] | null => (error instanceof RebuildInProgressError ? error.names : null);
