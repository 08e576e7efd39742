import type { Logger } from 'pino';
import type { CalendarPort } from '../../adapters/calendar/calendarPort.ts';
import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { FileStorage } from '../../adapters/files/fileStorage.ts';
import type { JobQueue, QueueDefinition } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { PaymentPort } from '../../adapters/payments/paymentPort.ts';
import type { PersonalDataVault } from '../../adapters/personalData/personalDataVault.ts';
import type { AccountHandlers } from '../../commands/accounts/accountDeps.ts';
import type { Projector } from '../../projections/runner/projector.ts';
import type { Reactor } from './reactor.ts';

/** What sagas and workflows may use: ports and command handlers, never a whole system. */
export interface SagaPorts {
  sql: Sql;
  store: EventStore;
  mailer: Mailer;
  vault: PersonalDataVault;
  jobs: JobQueue;
  supportAddress: string;
  /** The address mail is sent from (MAIL_FROM): the organizer of the calendar files sent with session notices. */
  mailFrom: string;
  accountHandlers: AccountHandlers;
  /** Tutors' calendars (Google or the sandbox). */
  calendar: CalendarPort;
  /** Uploaded files (tutors' pictures). */
  files: FileStorage;
  /** Payments (Stripe, or the sandbox provider). */
  payments: PaymentPort;
  /** The site's public origin (PUBLIC_URL): where providers deliver notifications (Google Calendar's pushes). */
  publicUrl: string;
  /** The process's logger, for what an operator must know (a feature that is off). */
  log: Logger;
  /** Business time: what a worker's or workflow's commands decide at. */
  clock: Clock;
}

/**
 * One feature's side effects: its queues, the reactors that fill them from the log, the workers
 * that drain them, and its workflows. `src/sagas/sagas.ts` lists the features, one line each.
 */
export interface SagaFeature {
  name: string;
  queues: readonly QueueDefinition[];
  reactors?: readonly Reactor[];
  workflows?: (ports: SagaPorts) => readonly Projector[];
  work?: (ports: SagaPorts) => Promise<void>;
}
