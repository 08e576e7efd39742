import { defineProjection } from '../../kit/defineProjection.ts';
import { insertRows } from '../../kit/writes.ts';
import { type AlertRow, alerts } from './tables.ts';

/** The alerts table, fed by the platform's own failure events. */
export const alertsProjector = defineProjection({
  name: 'alerts',
  handles: ['ProjectorStopped', 'EventParked', 'JobGaveUp'],
  tables: [alerts],
  async apply(tx, events) {
    const rows = events.map((e): AlertRow => {
      const common = {
        id: e.id,
        severity: 'high',
        is_resolved: false,
        resolved_at: null,
        resolved_by: null,
        user_id: null,
        student_id: null,
        session_id: null,
        purchase_id: null,
        metadata: e.data,
        created_at: e.recordedAt.toISOString(),
      } as const;
      switch (e.type) {
        case 'ProjectorStopped':
          return {
            ...common,
            type: 'projection_stopped',
            title: `Projection ${e.data.projector} stopped`,
            description: `It could not apply event ${e.data.eventId} (${e.data.eventType}): ${e.data.error}`,
          };
        case 'EventParked':
          return {
            ...common,
            type: 'event_parked',
            title: `Projection ${e.data.projector} parked an event`,
            description: `${e.data.eventId} (${e.data.eventType}) in ${e.data.streamId}: ${e.data.error}. Retry or skip it with projections:retry / projections:skip.`,
          };
        default:
          return {
            ...common,
            type: 'job_failed',
            title: `Background job ${e.data.queue} gave up`,
            description: `Job ${e.data.jobId} failed ${e.data.attempts} times: ${e.data.error}`,
          };
      }
    });
    await insertRows(tx, alerts, rows, 'nothing');
  },
});
