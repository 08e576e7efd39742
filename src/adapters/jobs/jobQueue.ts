import { PgBoss } from 'pg-boss';

export interface QueueDefinition {
  name: string;
  /** Attempts after the first, with exponential backoff from `retryDelaySeconds`. */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

export interface JobRequest {
  queue: string;
  /** Deterministic id (derived from the event): enqueueing twice creates one job. */
  id: string;
  data: Record<string, unknown>;
}

export interface QueueState {
  name: string;
  queued: number;
  active: number;
  failed: number;
  deadLettered: number;
}

export const deadLetterOf = (queue: string) => `${queue}__dead`;

/** pg-boss with the conventions of this system: every queue has a dead-letter queue and retries with backoff. */
export class JobQueue {
  readonly boss: PgBoss;
  private queues: QueueDefinition[] = [];

  constructor(connectionString: string, options: { schema?: string; max?: number } = {}) {
    this.boss = new PgBoss({
      connectionString,
      schema: options.schema ?? 'pgboss',
      max: options.max ?? 4,
      useListenNotify: true,
      application_name: 'topmark-jobs',
    } as ConstructorParameters<typeof PgBoss>[0]);
    this.boss.on('error', () => {});
  }

  async start(queues: QueueDefinition[]): Promise<void> {
    await this.boss.start();
    this.queues = queues;
    for (const q of queues) {
      const dead = deadLetterOf(q.name);
      if (!(await this.boss.getQueue(dead))) await this.boss.createQueue(dead, { notify: true });
      if (!(await this.boss.getQueue(q.name))) {
        await this.boss.createQueue(q.name, {
          retryLimit: q.retryLimit ?? 5,
          retryDelay: q.retryDelaySeconds ?? 2,
          retryBackoff: true,
          retryDelayMax: 600,
          deadLetter: dead,
          notify: true,
        });
      }
    }
  }

  async send(job: JobRequest): Promise<void> {
    await this.boss.send(job.queue, job.data, { id: job.id });
  }

  async work<Data>(queue: string, handler: (data: Data, job: { id: string; retryCount: number }) => Promise<void>): Promise<void> {
    await this.boss.work<Data>(queue, { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) await handler(job.data, { id: job.id, retryCount: job.retryCount });
    });
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

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 5000 });
  }
}
