import pLimit from 'p-limit';
import { type JobResult, type JobWithMetadata, PgBoss } from 'pg-boss';

export interface QueueDefinition {
  name: string;
  /** Attempts after the first, with exponential backoff from `retryDelaySeconds`. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /**
   * pg-boss's queue policy (default `standard`). `stately`: per `singletonKey`, at most one job
   * queued and one running, across every process; a send while one is queued adds nothing (a burst
   * of triggers for one key makes one job at a time, and one more after it for what came meanwhile).
   * Fixed when the queue is made.
   */
  policy?: 'standard' | 'stately';
}

export interface JobRequest {
  queue: string;
  /** Deterministic id (derived from the event): enqueueing twice creates one job. */
  id: string;
  data: Record<string, unknown>;
  /** Not before this time (a reminder): the job waits in the queue until then. */
  startAfter?: Date;
  /** On a `stately` queue: jobs with the same key are queued and run one at a time (see `QueueDefinition.policy`). */
  singletonKey?: string;
}

export interface QueueState {
  name: string;
  queued: number;
  active: number;
  failed: number;
  deadLettered: number;
}

/** How a process works one queue. Every field is optional; the defaults suit the mail sagas. */
export interface WorkOptions<Data = unknown> {
  /** Jobs claimed per fetch (default 50). A full batch is followed by another fetch at once. */
  batchSize?: number;
  /** Handlers of one fetched batch running at the same time (default 8). */
  concurrency?: number;
  /** Fetch loops for the queue in this process, each with its own batch (pg-boss `localConcurrency`, default 2). */
  workers?: number;
  /**
   * Backstop poll in seconds (default 1). New jobs wake the workers at once through LISTEN/NOTIFY;
   * the poll picks up retries whose backoff has run out, and new jobs when LISTEN is unavailable.
   */
  pollingIntervalSeconds?: number;
  /**
   * Jobs of one batch with the same key run one after another, in the order they were sent (e.g.
   * the stream their handler appends to, so two jobs of one event do not race on its revision).
   * Jobs without a key, or with different keys, run in parallel.
   */
  keyOf?: (data: Data) => string | undefined;
}

export interface JobStart {
  queue: string;
  id: string;
  retryCount: number;
  /** `Date.now()` when the handler was called. */
  at: number;
}

/** A claimed attempt at a job: pg-boss settles it only while that attempt still holds it. */
type Attempt = { id: string; retryCount: number };

/** `retryCount` of `retryLimit`: a handler on its last attempt (`retryCount >= retryLimit`) may settle what must not wait for ever. */
type Handler<Data> = (data: Data, job: { id: string; retryCount: number; retryLimit: number }) => Promise<void>;

export const deadLetterOf = (queue: string) => `${queue}__dead`;

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];
export type JobStateCounts = Record<JobState, number>;

/** A queue's jobs by state, and its dead-letter queue's. */
export interface QueueCounts {
  name: string;
  counts: JobStateCounts;
  deadLetter: { name: string; counts: JobStateCounts };
}

export interface ScheduleInfo {
  queue: string;
  key: string;
  cron: string;
  timezone: string;
  nextRunAt: Date | null;
}

/** A job that failed for good (its retries spent), as an operator sees it: ids, never payloads. */
export interface FailedJob {
  queue: string;
  id: string;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  failedOn: Date | null;
  error: string | null;
  /** The job data's identifiers (keys ending in "Id"/"id"), never the rest of it (mail bodies, addresses). */
  refs: Record<string, string>;
  /** Its copy in the dead-letter queue, when it was dead-lettered. */
  deadLetterId: string | null;
}

/** What an operator's retry or cancel found. */
export type JobActionOutcome = 'done' | 'not_found' | 'wrong_state';

/**
 * Workers refresh each running job's heartbeat every HEARTBEAT_SECONDS / 2 (pg-boss does it while
 * the handler runs); a job with no heartbeat for HEARTBEAT_SECONDS belongs to a dead worker and is
 * failed into its retry by the next supervision pass of any process.
 */
export const HEARTBEAT_SECONDS = 10;
const SUPERVISE_SECONDS = 5;

const DEFAULT_WORK: Required<Omit<WorkOptions, 'keyOf'>> = { batchSize: 50, concurrency: 8, workers: 2, pollingIntervalSeconds: 1 };

/**
 * pg-boss with the conventions of this system: every queue has a dead-letter queue and retries with
 * backoff. Workers claim jobs in batches and run several handlers at once, and each job settles on
 * its own (a failure retries or dead-letters that job only). Queues notify on insert, so an idle
 * worker in any process fetches as soon as a job is sent rather than at its next poll.
 */
export class JobQueue {
  readonly boss: PgBoss;
  private queues: QueueDefinition[] = [];
  private readonly startListeners = new Set<(start: JobStart) => void>();

  private readonly schema: string;

  constructor(connectionString: string, options: { schema?: string; max?: number } = {}) {
    this.schema = options.schema ?? 'pgboss';
    if (!/^[a-z_][a-z0-9_]*$/.test(this.schema)) throw new Error(`Invalid pg-boss schema name ${this.schema}`);
    this.boss = new PgBoss({
      connectionString,
      schema: this.schema,
      max: options.max ?? 4,
      useListenNotify: true,
      application_name: 'topmark-jobs',
      // A job whose worker died (SIGKILL, a lost host) goes back to its queue within about
      // HEARTBEAT_SECONDS + these, instead of after pg-boss's 15-minute expiry.
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
    } as ConstructorParameters<typeof PgBoss>[0]);
    this.boss.on('error', () => {});
  }

  async start(queues: QueueDefinition[]): Promise<void> {
    await this.boss.start();
    this.queues = queues;
    for (const q of queues) {
      const dead = deadLetterOf(q.name);
      if (!(await this.boss.getQueue(dead))) await this.boss.createQueue(dead, { notify: true });
      const existing = await this.boss.getQueue(q.name);
      if (!existing) {
        await this.boss.createQueue(q.name, {
          ...(q.policy ? { policy: q.policy } : {}),
          retryLimit: q.retryLimit ?? 5,
          retryDelay: q.retryDelaySeconds ?? 2,
          retryBackoff: true,
          retryDelayMax: 600,
          deadLetter: dead,
          notify: true,
          heartbeatSeconds: HEARTBEAT_SECONDS,
        });
      } else if (existing.heartbeatSeconds !== HEARTBEAT_SECONDS) {
        // Queues made before heartbeats: a killed worker's jobs waited 15 minutes there.
        await this.boss.updateQueue(q.name, { heartbeatSeconds: HEARTBEAT_SECONDS });
      }
    }
  }

  async send(job: JobRequest): Promise<void> {
    await this.boss.send(job.queue, job.data, {
      id: job.id,
      ...(job.startAfter && { startAfter: job.startAfter }),
      ...(job.singletonKey && { singletonKey: job.singletonKey }),
    });
  }

  /**
   * Enqueues many jobs with one statement per queue (and one NOTIFY), instead of one each. As with
   * `send`, an id already enqueued (or repeated in `jobs`) creates no second job.
   */
  async sendMany(jobs: readonly JobRequest[]): Promise<void> {
    const byQueue = new Map<string, Map<string, JobRequest>>();
    for (const job of jobs) {
      const queued = byQueue.get(job.queue) ?? new Map<string, JobRequest>();
      byQueue.set(job.queue, queued);
      if (!queued.has(job.id)) queued.set(job.id, job);
    }
    for (const [queue, queued] of byQueue) {
      await this.boss.insert(
        queue,
        [...queued.values()].map((job) => ({
          id: job.id,
          data: job.data,
          ...(job.startAfter && { startAfter: job.startAfter }),
          ...(job.singletonKey && { singletonKey: job.singletonKey }),
        })),
      );
    }
  }

  /**
   * Runs `handler` for every job of `queue`. A handler that throws fails its own job, which is
   * retried with the queue's backoff and dead-lettered once its retries are spent; the other jobs
   * of the batch complete.
   */
  async work<Data>(queue: string, handler: Handler<Data>, options: WorkOptions<Data> = {}): Promise<void> {
    const o = { ...DEFAULT_WORK, ...options };
    const keyOf = options.keyOf;
    const handle = async (job: JobWithMetadata<Data>): Promise<JobResult> => {
      if (this.startListeners.size > 0) {
        const start = { queue, id: job.id, retryCount: job.retryCount, at: Date.now() };
        for (const listener of this.startListeners) {
          try {
            listener(start);
          } catch {
            // instrumentation never fails a job
          }
        }
      }
      try {
        await handler(job.data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit });
        return { id: job.id, status: 'completed' };
      } catch (error) {
        return { id: job.id, status: 'failed', output: error instanceof Error ? error : { message: String(error) } };
      }
    };
    await this.boss.work(
      queue,
      {
        batchSize: o.batchSize,
        localConcurrency: o.workers,
        pollingIntervalSeconds: o.pollingIntervalSeconds,
        notifyPollingIntervalSeconds: o.pollingIntervalSeconds,
        burstWhenBatchFull: true,
        includeMetadata: true,
        perJobResults: true,
      },
      async (fetched: JobWithMetadata<Data>[]) => {
        // claimed oldest first, but returned in no particular order: start the oldest first
        const jobs = [...fetched].sort((a, b) => a.createdOn.getTime() - b.createdOn.getTime());
        const groups = new Map<unknown, JobWithMetadata<Data>[]>();
        for (const job of jobs) {
          const key = keyOf?.(job.data) ?? job;
          const group = groups.get(key);
          if (group) group.push(job);
          else groups.set(key, [job]);
        }
        const outcomes = await pLimit(Math.max(1, o.concurrency)).map([...groups.values()], async (group) => {
          const out: JobResult[] = [];
          for (const job of group) out.push(await handle(job));
          return out;
        });
        const results = outcomes.flat();
        await this.settle(queue, jobs, results);
        return results;
      },
    );
  }

  /**
   * Records a batch's outcome, retrying a statement that fails (e.g. a dropped connection), before
   * pg-boss settles it from the same results and finds nothing left active. pg-boss alone would
   * fail the whole batch when its settling statement throws, running the completed jobs (and
   * their side effects) again.
   */
  private async settle(queue: string, jobs: JobWithMetadata<unknown>[], results: JobResult[]): Promise<void> {
    const attempts = new Map(jobs.map((j) => [j.id, { id: j.id, retryCount: j.retryCount }]));
    const completed = results.flatMap((r) => (r.status === 'completed' ? [attempts.get(r.id) as Attempt] : []));
    try {
      if (completed.length > 0) await withRetries(() => this.boss.complete(queue, completed));
      for (const r of results) {
        if (r.status === 'failed') await withRetries(() => this.boss.fail(queue, attempts.get(r.id) as Attempt, r.output));
      }
    } catch {
      // still unreachable: pg-boss settles from the results, or fails the batch for a later retry
    }
  }

  /** Instrumentation (benchmarks, tests): `listener` is called as each job's handler starts. Returns the unsubscribe. */
  onJobStart(listener: (start: JobStart) => void): () => void {
    this.startListeners.add(listener);
    return () => this.startListeners.delete(listener);
  }

  async state(): Promise<QueueState[]> {
    const out: QueueState[] = [];
    for (const q of this.queues) {
      const main = await this.boss.getQueue(q.name);
      const dead = await this.boss.getQueue(deadLetterOf(q.name));
      out.push({
        name: q.name,
        queued: main?.queuedCount ?? 0,
        active: main?.activeCount ?? 0,
        failed: main?.failedCount ?? 0,
        deadLettered: (dead?.queuedCount ?? 0) + (dead?.activeCount ?? 0),
      });
    }
    return out;
  }

  /** The queues this process defined (each with its dead-letter queue). */
  get queueNames(): string[] {
    return this.queues.map((q) => q.name);
  }

  /** Whether `name` is one of the defined queues or their dead-letter queues. */
  isKnownQueue(name: string): boolean {
    return this.queues.some((q) => q.name === name || deadLetterOf(q.name) === name);
  }

  private sqlQuery<Row>(text: string, values: unknown[]): Promise<Row[]> {
    return this.boss
      .getDb()
      .executeSql(text, values)
      .then((r) => r.rows as Row[]);
  }

  /**
   * Every queue's jobs counted by state, with its dead-letter queue's. pg-boss has no count by
   * state (getQueue gives queued, active and failed only), so this one query reads its job table.
   */
  async counts(): Promise<QueueCounts[]> {
    const names = this.queues.flatMap((q) => [q.name, deadLetterOf(q.name)]);
    const rows = await this.sqlQuery<{ name: string; state: string; count: number }>(
      `SELECT name, state::text AS state, count(*)::int AS count FROM ${this.schema}.job WHERE name = ANY($1::text[]) GROUP BY 1, 2`,
      [names],
    );
    const countsOf = (name: string): JobStateCounts => {
      const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as JobStateCounts;
      for (const row of rows) if (row.name === name && row.state in counts) counts[row.state as JobState] = Number(row.count);
      return counts;
    };
    return this.queues.map((q) => ({
      name: q.name,
      counts: countsOf(q.name),
      deadLetter: { name: deadLetterOf(q.name), counts: countsOf(deadLetterOf(q.name)) },
    }));
  }

  /** The recurring jobs (pg-boss schedules) with their next run. */
  async schedules(from: Date = new Date()): Promise<ScheduleInfo[]> {
    const schedules = await this.boss.getSchedules();
    return schedules.map((s) => {
      let nextRunAt: Date | null = null;
      try {
        nextRunAt = this.boss.previewSchedule(s.cron, { tz: s.timezone || 'UTC', from, count: 1 })[0] ?? null;
      } catch {
        // an expression pg-boss cannot read has no next run to show
      }
      return { queue: s.name, key: s.key, cron: s.cron, timezone: s.timezone || 'UTC', nextRunAt };
    });
  }

  /**
   * Jobs of the defined queues that failed for good, newest first, one page at a time, each with
   * its error and whether it was dead-lettered. pg-boss finds jobs by id or data only, so this reads
   * its job table.
   */
  async failedJobs(options: { queue?: string; page: number; pageSize: number }): Promise<{ jobs: FailedJob[]; total: number }> {
    const names = options.queue ? [options.queue] : this.queueNames;
    const where = `j.name = ANY($1::text[]) AND j.state = 'failed'`;
    const [total] = await this.sqlQuery<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.schema}.job j WHERE ${where}`, [
      names,
    ]);
    const rows = await this.sqlQuery<{
      name: string;
      id: string;
      state: JobState;
      retry_count: number;
      retry_limit: number;
      created_on: Date;
      completed_on: Date | null;
      output: unknown;
      data: unknown;
      dead_id: string | null;
    }>(
      `SELECT j.name, j.id, j.state::text AS state, j.retry_count, j.retry_limit, j.created_on, j.completed_on, j.output, j.data,
              (SELECT d.id FROM ${this.schema}.job d WHERE d.name = j.name || '__dead' AND d.source_id = j.id LIMIT 1) AS dead_id
       FROM ${this.schema}.job j WHERE ${where}
       ORDER BY j.completed_on DESC NULLS LAST, j.created_on DESC, j.id LIMIT $2 OFFSET $3`,
      [names, options.pageSize, (options.page - 1) * options.pageSize],
    );
    return {
      total: Number(total?.count ?? 0),
      jobs: rows.map((r) => ({
        queue: r.name,
        id: r.id,
        state: r.state,
        retryCount: r.retry_count,
        retryLimit: r.retry_limit,
        createdOn: new Date(r.created_on),
        failedOn: r.completed_on ? new Date(r.completed_on) : null,
        error: errorOf(r.output),
        refs: refsOf(r.data),
        deadLetterId: r.dead_id,
      })),
    };
  }

  private async stateOf(queue: string, id: string): Promise<{ state: JobState; source: { name: string; id: string } | null } | null> {
    const [row] = await this.sqlQuery<{ state: JobState; source_name: string | null; source_id: string | null }>(
      `SELECT state::text AS state, source_name, source_id FROM ${this.schema}.job WHERE name = $1 AND id = $2::uuid`,
      [queue, id],
    );
    if (!row) return null;
    return { state: row.state, source: row.source_name && row.source_id ? { name: row.source_name, id: row.source_id } : null };
  }

  /**
   * Runs a failed job again (pg-boss `retry`: one more attempt). A dead-lettered copy stands for
   * its original: retrying it retries the job that failed.
   */
  async retryJob(queue: string, id: string): Promise<JobActionOutcome> {
    let target = { name: queue, id };
    let found = await this.stateOf(queue, id);
    if (found?.source) {
      target = found.source;
      found = await this.stateOf(target.name, target.id);
    }
    if (!found) return 'not_found';
    if (found.state !== 'failed') return 'wrong_state';
    const result = (await this.boss.retry(target.name, target.id)) as { affected?: number };
    return (result.affected ?? 0) > 0 ? 'done' : 'wrong_state';
  }

  /** Cancels a job that has not finished (created, retry, active): pg-boss `cancel`. */
  async cancelJob(queue: string, id: string): Promise<JobActionOutcome> {
    const found = await this.stateOf(queue, id);
    if (!found) return 'not_found';
    const result = (await this.boss.cancel(queue, id)) as { affected?: number };
    return (result.affected ?? 0) > 0 ? 'done' : 'wrong_state';
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 5000 });
  }
}

/** A failed job's output is the handler's error (pg-boss keeps an Error's message), in bounded length. */
function errorOf(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  const message = typeof output === 'object' && 'message' in output ? (output as { message: unknown }).message : output;
  const text = typeof message === 'string' ? message : JSON.stringify(message);
  return text.slice(0, 2000);
}

const REF_KEY = /(^id$|Id$|_id$)/;

/** The identifiers in a job's data: what an operator needs to find the entity, nothing personal. */
function refsOf(data: unknown): Record<string, string> {
  if (!data || typeof data !== 'object') return {};
  const refs: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (REF_KEY.test(key) && (typeof value === 'string' || typeof value === 'number') && String(value).length <= 100) {
      refs[key] = String(value);
    }
  }
  return refs;
}

/** Runs `fn`, again after 250 ms and 1 s if it throws. */
async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (const delay of [250, 1000]) {
    try {
      return await fn();
    } catch {
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  return fn();
}
