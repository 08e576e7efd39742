import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  FAILED_JOBS_PAGE_SIZE,
  failedJobSchema,
  failedJobsPageSchema,
  failedJobsQuerySchema,
  jobActionSchema,
  jobsOverviewSchema,
} from '../../../domain/operations/jobApi.ts';
import type { System } from '../../../system.ts';

/** Jobs are operated by admins only: finance staff see purchases and payouts (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNKNOWN_QUEUE = 'Unknown queue';
const UNKNOWN_JOB = 'No such job in this queue';

const jobParams = z.object({ queue: z.string().min(1).max(200), id: z.string().min(1).max(100) });

/**
 * The console's jobs (issue 12 §8): pg-boss queues counted by state with their dead-letter
 * queues, the schedules, the jobs that failed for good (errors and ids, never payloads), and an
 * operator's retry or cancel of one job.
 */
export const jobRoutes =
  ({ jobs }: Pick<System, 'jobs'>): FastifyPluginAsyncZod =>
  async (app) => {
    const checkJob = (queue: string, id: string) => {
      if (!jobs.isKnownQueue(queue)) throw new DomainError(UNKNOWN_QUEUE, 'not_found');
      // A job id is a UUID: anything else names no job (and never reaches the uuid cast).
      if (!UUID.test(id)) throw new DomainError(UNKNOWN_JOB, 'not_found');
    };

    app.get(
      '/api/admin/jobs',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Every queue with its jobs counted by state (and its dead-letter queue), and the schedules with their next run',
          response: { 200: jobsOverviewSchema },
        },
      },
      async () => {
        const [queues, schedules] = [await jobs.counts(), await jobs.schedules()];
        return { queues, schedules: schedules.map((s) => ({ ...s, nextRunAt: s.nextRunAt?.toISOString() ?? null })) };
      },
    );

    app.get(
      '/api/admin/jobs/failed',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Jobs that failed for good (and whether they were dead-lettered), newest first, with their errors',
          querystring: failedJobsQuerySchema,
          response: { 200: failedJobsPageSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const { queue, page } = request.query;
        if (queue !== undefined && !jobs.queueNames.includes(queue)) throw new DomainError(UNKNOWN_QUEUE, 'not_found');
        const result = await jobs.failedJobs({ ...(queue ? { queue } : {}), page, pageSize: FAILED_JOBS_PAGE_SIZE });
        return {
          total: result.total,
          page,
          pageSize: FAILED_JOBS_PAGE_SIZE,
          jobs: result.jobs.map((j) =>
            failedJobSchema.parse({ ...j, createdOn: j.createdOn.toISOString(), failedOn: j.failedOn?.toISOString() ?? null }),
          ),
        };
      },
    );

    app.post(
      '/api/admin/jobs/:queue/:id/retry',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Run a failed (or dead-lettered) job once more; 409 when it has not failed',
          params: jobParams,
          response: { 200: jobActionSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request) => {
        const { queue, id } = request.params;
        checkJob(queue, id);
        const outcome = await jobs.retryJob(queue, id);
        if (outcome === 'not_found') throw new DomainError(UNKNOWN_JOB, 'not_found');
        if (outcome === 'wrong_state') throw new DomainError('Only a failed job can be retried', 'conflict');
        return { queue, id, status: 'retried' as const };
      },
    );

    app.post(
      '/api/admin/jobs/:queue/:id/cancel',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Cancel a job that has not finished (waiting, retrying or running); 409 when it has',
          params: jobParams,
          response: { 200: jobActionSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request) => {
        const { queue, id } = request.params;
        checkJob(queue, id);
        const outcome = await jobs.cancelJob(queue, id);
        if (outcome === 'not_found') throw new DomainError(UNKNOWN_JOB, 'not_found');
        if (outcome === 'wrong_state') throw new DomainError('Only a job that has not finished can be cancelled', 'conflict');
        return { queue, id, status: 'cancelled' as const };
      },
    );
  };
