import { failedJobsPageSchema, jobActionSchema, jobsOverviewSchema } from '@shared/operations/jobApi.ts';
import {
  parkedEventListSchema,
  parkedOutcomeSchema,
  projectionListSchema,
  rebuildAcceptedSchema,
} from '@shared/operations/projectionApi.ts';
import { api, jsonQuery } from '../../app/api.ts';

const id = (value: string) => encodeURIComponent(value);

/** The console's System group (issue 12 §7–§9): projections and jobs (the dev mailbox is accounts' consoleApi). */
export const systemApi = {
  projectionsKey: ['/api/admin/projections'] as const,
  projections: jsonQuery('/api/admin/projections', projectionListSchema),
  parkedKey: ['/api/admin/projections', 'parked'] as const,
  parked: jsonQuery('/api/admin/projections/parked', parkedEventListSchema),
  rebuild: (name: string) => api.send('POST', `/api/admin/projections/${id(name)}/rebuild`, undefined, rebuildAcceptedSchema),
  rebuildAll: () => api.send('POST', '/api/admin/projections/rebuild-all', undefined, rebuildAcceptedSchema),
  decideParked: (projector: string, eventId: string, decision: 'retry' | 'skip', reason: string) =>
    api.send('POST', `/api/admin/projections/${id(projector)}/parked/${id(eventId)}/${decision}`, { reason }, parkedOutcomeSchema),

  jobsKey: ['/api/admin/jobs'] as const,
  jobs: jsonQuery('/api/admin/jobs', jobsOverviewSchema),
  failedJobsKey: (page: number) => ['/api/admin/jobs', 'failed', page] as const,
  failedJobs: (page: number) => jsonQuery(`/api/admin/jobs/failed?page=${page}`, failedJobsPageSchema),
  jobAction: (queue: string, jobId: string, action: 'retry' | 'cancel') =>
    api.send('POST', `/api/admin/jobs/${id(queue)}/${id(jobId)}/${action}`, undefined, jobActionSchema),
};
