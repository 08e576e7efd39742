import { defineProjection } from '../../kit/defineProjection.ts';
import { insertRows } from '../../kit/writes.ts';
import { type AlertRow, alerts } from './tables.ts';

/** The alerts table, fed by the platform's own failure events. */
export const alertsProjector = defineProjection({
  name: 'alerts',
  handles: ['ProjectorStopped', 'JobGaveUp'],
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
      return e.type === 'ProjectorStopped'
        ? {
            ...common,
            type: 'projection_stopped',
            title: `Projection ${e.data.projector} stopped`,
            description: `It could not apply event ${e.data.eventId} (${e.data.eventType}): ${e.data.error}`,
          }
        : {
            ...common,
            type: 'job_failed',
            title: `Background job ${e.data.queue} gave up`,
            description: `Job ${e.data.jobId} failed ${e.data.attempts} times: ${e.data.error}`,
          };
    });
    await insertRows(tx, alerts, rows, 'nothing');
  },
});
