import type { z } from 'zod';
import type { jobGaveUp, projectorStopped } from '../../domain/operations/operationsEvents.ts';
import type { Projector } from '../runner/projector.ts';

/** The alerts table of the spec's data model, fed by the platform's own failure events. */
export const alertsProjector: Projector = {
  name: 'alerts',
  handles: ['ProjectorStopped', 'JobGaveUp'],
  tables: ['alerts'],
  async setup(tx) {
    await tx.unsafe(`
      CREATE TABLE IF NOT EXISTS alerts (
        id          uuid PRIMARY KEY,
        type        text NOT NULL,
        title       text NOT NULL,
        description text,
        severity    text NOT NULL DEFAULT 'medium',
        is_resolved boolean NOT NULL DEFAULT false,
        resolved_at timestamptz,
        resolved_by text,
        user_id     text,
        student_id  text,
        session_id  text,
        purchase_id text,
        metadata    jsonb,
        created_at  timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS alerts_open ON alerts (is_resolved, created_at DESC);`);
  },
  async apply(tx, events) {
    const rows = events.map((e) => {
      if (e.type === 'ProjectorStopped') {
        const d = e.data as z.infer<typeof projectorStopped>;
        return {
          id: e.id,
          type: 'projection_stopped',
          title: `Projection ${d.projector} stopped`,
          description: `It could not apply event ${d.eventId} (${d.eventType}): ${d.error}`,
          severity: 'high',
          metadata: d,
          created_at: e.recordedAt.toISOString(),
        };
      }
      const d = e.data as z.infer<typeof jobGaveUp>;
      return {
        id: e.id,
        type: 'job_failed',
        title: `Background job ${d.queue} gave up`,
        description: `Job ${d.jobId} failed ${d.attempts} times: ${d.error}`,
        severity: 'high',
        metadata: d,
        created_at: e.recordedAt.toISOString(),
      };
    });
    await tx`
      INSERT INTO alerts (id, type, title, description, severity, metadata, created_at)
      SELECT id, type, title, description, severity, metadata, created_at
      FROM jsonb_to_recordset(${tx.json(rows as never)}) AS x(
        id uuid, type text, title text, description text, severity text, metadata jsonb, created_at timestamptz)
      ON CONFLICT (id) DO NOTHING`;
  },
};
