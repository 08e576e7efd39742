import { z } from 'zod';

/** pg-boss job states (the console counts each). */
export const jobStates = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
const countsSchema = z.object(Object.fromEntries(jobStates.map((s) => [s, z.number()])) as Record<(typeof jobStates)[number], z.ZodNumber>);

export const queueCountsSchema = z.object({
  name: z.string(),
  counts: countsSchema,
  deadLetter: z.object({ name: z.string(), counts: countsSchema }),
});
export type QueueCountsView = z.output<typeof queueCountsSchema>;

export const scheduleSchema = z.object({
  queue: z.string(),
  key: z.string(),
  cron: z.string(),
  timezone: z.string(),
  nextRunAt: z.string().nullable(),
});
export type ScheduleView = z.output<typeof scheduleSchema>;

/** GET /api/admin/jobs */
export const jobsOverviewSchema = z.object({ queues: z.array(queueCountsSchema), schedules: z.array(scheduleSchema) });

export const FAILED_JOBS_PAGE_SIZE = 25;
/** GET /api/admin/jobs/failed?queue=&page= */
export const failedJobsQuerySchema = z.object({
  queue: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const failedJobSchema = z.object({
  queue: z.string(),
  id: z.string(),
  state: z.enum(jobStates),
  retryCount: z.number(),
  retryLimit: z.number(),
  createdOn: z.string(),
  failedOn: z.string().nullable(),
  error: z.string().nullable(),
  /** Identifiers from the job's data only (never bodies or addresses). */
  refs: z.record(z.string(), z.string()),
  deadLetterId: z.string().nullable(),
});
export type FailedJobView = z.output<typeof failedJobSchema>;
export const failedJobsPageSchema = z.object({
  jobs: z.array(failedJobSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const jobActionSchema = z.object({ queue: z.string(), id: z.string(), status: z.enum(['retried', 'cancelled']) });
