import type { SagaFeature } from '../kit/sagaFeature.ts';
import { SESSION_REMINDER_QUEUE, sessionReminderReactor, workSessionReminders } from './sessionReminders.ts';

export const sessionSagas: SagaFeature = {
  name: 'sessions',
  queues: [{ name: SESSION_REMINDER_QUEUE, retryLimit: 8, retryDelaySeconds: 30 }],
  reactors: [sessionReminderReactor],
  work: (ports) => workSessionReminders(ports.jobs, { sql: ports.sql, store: ports.store, mailer: ports.mailer }),
};
