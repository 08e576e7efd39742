import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { CalendarPort } from './adapters/calendar/calendarPort.ts';
import { type CalendarRevisions, calendarRevisions, withCalendarRevisions } from './adapters/calendar/calendarRevisions.ts';
import { SandboxCalendar } from './adapters/calendar/sandbox/sandboxCalendar.ts';
import { type Clock, systemClock } from './adapters/clock/clock.ts';
import type { Config } from './adapters/config/config.ts';
import { connect, type Sql } from './adapters/db/db.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './adapters/db/embeddedPostgres.ts';
import { instanceSecret } from './adapters/db/instanceSecrets.ts';
import { migrate } from './adapters/db/migrate.ts';
import type { EventStore } from './adapters/eventstore/eventStore.ts';
import { PostgresEventStore } from './adapters/eventstore/postgres/postgresEventStore.ts';
import type { FileStorage } from './adapters/files/fileStorage.ts';
import { importLocalFiles } from './adapters/files/importLocalFiles.ts';
import { PostgresFileStorage } from './adapters/files/postgresFileStorage.ts';
import { DevIdentityProvider } from './adapters/identity/devIdentity.ts';
import type { IdentityProvider } from './adapters/identity/identityProvider.ts';
import { deadLetterOf, JobQueue } from './adapters/jobs/jobQueue.ts';
import type { Mailer } from './adapters/mail/mailer.ts';
import { OutboxMailer } from './adapters/mail/outboxMailer.ts';
import { SmtpMailer } from './adapters/mail/smtpMailer.ts';
import { argon2Hasher } from './adapters/passwords/passwordHasher.ts';
import type { PaymentPort } from './adapters/payments/paymentPort.ts';
import { SandboxPayments } from './adapters/payments/sandbox/sandboxPayments.ts';
import { PersonalDataVault } from './adapters/personalData/personalDataVault.ts';
import { ProtectedEventStore } from './adapters/personalData/protectedEventStore.ts';
import { RateLimiter } from './adapters/rateLimit/rateLimiter.ts';
import { SignInStore } from './adapters/signIns/signInStore.ts';
import { type AccountDeps, accountHandlers } from './commands/accounts/accountDeps.ts';
import { type AccountsModule, accountsModule } from './commands/accounts/accountsModule.ts';
import { claimEnrollmentOnce, recordCourseEnded, recordCourseTutorChosen, releaseEnrollment } from './commands/accounts/enrollment.ts';
import { type ContactModule, contactModule } from './commands/contact/contactModule.ts';
import { courseHandlers, courseIdForPurchase } from './commands/courses/courseHandlers.ts';
import { courseLedger } from './commands/courses/courseLedger.ts';
import { clearRepurchase, holdsRepurchase, markRepurchasePending } from './commands/courses/courseRepurchase.ts';
import { type CoursesModule, coursesModule } from './commands/courses/coursesModule.ts';
import { type NoticesModule, noticesModule } from './commands/notices/noticesModule.ts';
import { type OperationsModule, operationsModule } from './commands/operations/operationsModule.ts';
import { recordEventParked } from './commands/operations/parkedEvents.ts';
import { recordJobGaveUp } from './commands/operations/recordFailures.ts';
import { type PackagesModule, packagesModule } from './commands/packages/packagesModule.ts';
import { type PayoutsModule, payoutsModule } from './commands/payouts/payoutsModule.ts';
import { type PromoCodesModule, promoCodesModule } from './commands/promoCodes/promoCodesModule.ts';
import { type PurchasesModule, purchasesModule } from './commands/purchases/purchasesModule.ts';
import { type ReviewsModule, reviewsModule } from './commands/reviews/reviewsModule.ts';
import { SCHEDULE_ATTEMPTS, sessionHandlers } from './commands/sessions/sessionHandlers.ts';
import { type SessionsModule, sessionsModule } from './commands/sessions/sessionsModule.ts';
import { type SubjectsModule, subjectsModule } from './commands/subjects/subjectsModule.ts';
import { changeTutorRate } from './commands/tutors/changeTutorRate.ts';
import { tutorHandlers } from './commands/tutors/tutorHandlers.ts';
import { type TutorsModule, tutorsModule } from './commands/tutors/tutorsModule.ts';
import { sessionsRemainingOf } from './domain/courses/course.ts';
import { eventCatalog } from './domain/eventCatalog.ts';
import { promoCheckLimits } from './http/kit/rateLimits.ts';
import { readYourWrites } from './http/kit/readYourWrites.ts';
import { adminOverview, findTutorApplication, listTutorApplications } from './projections/accounts/tutorApplicationsProjector.ts';
import { projectors } from './projections/projectors.ts';
import { ProjectionRunner } from './projections/runner/projectionRunner.ts';
import { RebuildRequests, RebuildWorker } from './projections/runner/rebuildRequests.ts';
import { reactorProjector } from './sagas/kit/reactor.ts';
import type { SagaPorts } from './sagas/kit/sagaFeature.ts';
import { queues, reactors, sagaFeatures } from './sagas/sagas.ts';

export type Mode = 'all' | 'api' | 'projector' | 'worker' | 'cli';

export interface System {
  /** Signs short-lived cookies: COOKIE_SECRET, else the installation's own, shared by every process (`instance_secrets`). */
  cookieSecret: string;
  config: Config;
  log: Logger;
  sql: Sql;
  databaseUrl: string;
  /** The store with personal data decrypted: what commands, projectors and sagas use. */
  store: ProtectedEventStore;
  rawStore: EventStore;
  vault: PersonalDataVault;
  mailer: Mailer;
  jobs: JobQueue;
  projections: ProjectionRunner;
  reactors: ProjectionRunner;
  /** Rebuilds asked for from the console, run by the process that runs the projectors. */
  rebuilds: RebuildRequests;
  signIns: SignInStore;
  /** The accounts feature: registration, sign-in (password and Google), the account's settings, a student's account and view-only login, deletion, deactivation; also the AccountDeps the account commands take. */
  accounts: AccountsModule;
  /** The contact feature: the public contact form and the student area's help messages. */
  contact: ContactModule;
  /** The notices feature: a person's e-mail settings and the bell's notices. */
  notices: NoticesModule;
  /** The reviews feature: a family's session reviews, the tutor's and the console's lists, hiding a comment. */
  reviews: ReviewsModule;
  /** The tutoring sessions feature: free slots, booking, moving, cancelling, completing, and the lists (docs/architecture.md "Feature modules"). */
  sessions: SessionsModule;
  /** The purchases feature: checkout and repurchase (one process, by kind), their confirmation, the repurchase's cancel, the provider's webhook, a student's purchases. */
  purchases: PurchasesModule;
  /** The student courses feature: a student's courses and their tutors' standing, the enrolment status, choosing the tutor, activating and ending a course. */
  courses: CoursesModule;
  /** The subject catalogue: the public subjects and grade tiers, the admin's list and commands. */
  subjects: SubjectsModule;
  /** The session packages (public reads). */
  packages: PackagesModule;
  /** The promo codes feature: the admin's codes and redemptions, the check at checkout, and the code's stream and held use the purchases are given. */
  promoCodes: PromoCodesModule;
  /** The payouts feature: a billing period's payout, approving and paying it, a tutor's hourly rate. */
  payouts: PayoutsModule;
  /** The operations feature: the console's alerts and its projections (status, rebuilds, parked events). */
  operations: OperationsModule;
  /** The tutors feature: the tutor's facts and calendar, weekly hours, onboarding, profile, picture, subjects, dashboard figures, and recruiting (invitations, applications under review). */
  tutors: TutorsModule;
  /** Google sign-in: Google when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set, else the dev provider. */
  identity: IdentityProvider;
  /** Tutors' calendars: Google when Google credentials are configured, else the sandbox calendar in PostgreSQL; every write raises the calendar's revision. */
  calendar: CalendarPort;
  /** How far each tutor's calendar has changed, shared by every process: what a process keeps of a calendar is valid at one revision. */
  calendarRevisions: CalendarRevisions;
  /** Uploaded files (tutors' pictures, pending uploads): the `stored_files` table, shared by every process. */
  files: FileStorage;
  /** Payments: Stripe when STRIPE_SECRET_KEY is set, else the sandbox provider in PostgreSQL (refused in production). */
  payments: PaymentPort;
  /** Business time for routes, commands and sagas: the real time, unless a test gives its own (SystemOptions.clock). */
  clock: Clock;
  close(): Promise<void>;
}

export { queues, reactors } from './sagas/sagas.ts';

/**
 * The composition root: picks the adapters the configuration asks for (PostgreSQL or
 * EventStoreDB, SMTP or the outbox, an external or an embedded database) and wires the runners
 * that the process mode runs.
 */
export interface SystemOptions {
  log?: Logger;
  /** Replaces the configured mailer (tests: a provider that fails). */
  mailer?: Mailer;
  /** Retry policy for every queue (tests: fewer, faster retries). */
  retry?: { retryLimit: number; retryDelaySeconds: number };
  /** Replaces the configured calendar (tests: a provider that fails, or Google against a local server). */
  calendar?: CalendarPort;
  /** Replaces the file storage (tests: one that fails); none is imported from `DATA_DIR/files` then. */
  files?: FileStorage;
  /** Replaces the configured payments (tests: Stripe against a local server). */
  payments?: PaymentPort;
  /** Replaces the real time (tests: the browser suite's server runs on a clock it can move). */
  clock?: Clock;
}

export async function createSystem(config: Config, mode: Mode, options: SystemOptions = {}): Promise<System> {
  const log =
    options.log ??
    pino({
      level: config.LOG_LEVEL,
      base: { mode },
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization', '*.email', '*.password'], censor: '[redacted]' },
    });
  // Before anything starts: production takes real payments only.
  if (!options.payments) assertPaymentsConfigured(config);
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.DATA_DIR, (line) => log.info(line));
    databaseUrl = embedded.url;
  }
  const sql = connect(databaseUrl, { max: mode === 'cli' ? Math.min(4, config.DATABASE_POOL_MAX) : config.DATABASE_POOL_MAX });
  await migrate(sql, { eventStore: !config.EVENTSTORE_URL });
  const cookieSecret = config.COOKIE_SECRET ?? (await instanceSecret(sql, 'cookie'));

  let rawStore: EventStore;
  if (config.EVENTSTORE_URL) {
    const { EsdbEventStore } = await import('./adapters/eventstore/esdb/esdbEventStore.ts');
    rawStore = new EsdbEventStore(config.EVENTSTORE_URL);
  } else {
    rawStore = new PostgresEventStore(sql);
  }
  const vault = new PersonalDataVault(sql);
  const store = new ProtectedEventStore(rawStore, vault, eventCatalog);

  const mailer: Mailer = options.mailer ?? mailerFor(config, mode, sql, vault, log);

  const jobs = new JobQueue(databaseUrl);
  const runnerLog = (message: string, detail?: Record<string, unknown>) => log.warn(detail ?? {}, message);
  const clock = options.clock ?? systemClock;
  // Processes whose requests are served elsewhere tell those processes when a checkpoint moves.
  const announceCheckpoints = mode !== 'all';
  const projections = new ProjectionRunner(sql, store, projectors, {
    log: runnerLog,
    announceCheckpoints,
    onParked: async (projector, event, error) => {
      await recordEventParked(store, { projector, eventId: event.id, eventType: event.type, streamId: event.streamId, error }, clock.now());
    },
  });
  const accountCommandHandlers = accountHandlers(store);
  const revisionsOfCalendars = calendarRevisions(sql);
  const calendar = withCalendarRevisions(options.calendar ?? (await calendarFor(config, sql)), revisionsOfCalendars);
  const files = options.files ?? (await fileStorageFor(sql, embedded && mode !== 'cli' ? config.DATA_DIR : null, log));
  const payments = options.payments ?? (await paymentsFor(config, sql));
  const sagaPorts: SagaPorts = {
    sql,
    store,
    mailer,
    vault,
    jobs,
    supportAddress: config.SUPPORT_EMAIL,
    mailFrom: config.MAIL_FROM,
    accountHandlers: accountCommandHandlers,
    calendar,
    files,
    payments,
    publicUrl: config.PUBLIC_URL,
    log,
    clock,
  };
  const reactorRunner = new ProjectionRunner(
    sql,
    store,
    [...reactors.map((r) => reactorProjector(r, jobs)), ...sagaFeatures.flatMap((f) => f.workflows?.(sagaPorts) ?? [])],
    { kind: 'reactor', log: runnerLog, batchSize: 200, announceCheckpoints },
  );

  const runsProjections = mode === 'all' || mode === 'projector';
  const runsWorkers = mode === 'all' || mode === 'worker';
  const rebuilds = new RebuildRequests(sql);
  const rebuildWorker = runsProjections ? new RebuildWorker(sql, projections, rebuilds, { log: runnerLog }) : null;
  const queueDefinitions = queues.map((q) => ({ ...q, ...options.retry }));
  await jobs.start(queueDefinitions);
  await projections.setup();
  await reactorRunner.setup();
  if (runsProjections) {
    await projections.start();
    await reactorRunner.start();
    await rebuildWorker?.start();
  }
  if (runsWorkers) {
    for (const feature of sagaFeatures) await feature.work?.(sagaPorts);
    for (const q of queueDefinitions) {
      await jobs.work<Record<string, unknown>>(deadLetterOf(q.name), async (_data, job) => {
        log.error({ queue: q.name, jobId: job.id }, 'job gave up after its retries');
        await recordJobGaveUp(
          store,
          { queue: q.name, jobId: job.id, error: 'retries exhausted', attempts: (q.retryLimit ?? 5) + 1 },
          clock.now(),
        );
      });
    }
  }

  const signIns = new SignInStore(sql);
  const accountDeps: AccountDeps = {
    handlers: accountCommandHandlers,
    store,
    sql,
    hasher: argon2Hasher,
    signIns,
    rateLimiter: new RateLimiter(sql),
    vault,
  };
  // One module per feature, closed over the store, the read models and the adapters; what a
  // feature needs of another (the course ledger, the tutor's facts and calendar) is given here.
  const tutors = tutorsModule({
    sql,
    store,
    clock,
    calendar,
    files,
    jobs,
    publicUrl: config.PUBLIC_URL,
    applications: {
      pending: () => listTutorApplications(sql),
      find: (applicantId) => findTutorApplication(sql, applicantId),
      overview: () => adminOverview(sql),
    },
    waitFor: (projections, position, timeoutMs) => readYourWrites(sql, projections, position, timeoutMs),
  });
  const sessions = sessionsModule({
    sql,
    store,
    clock,
    // One student's concurrent bookings race on their course's stream: allow as many rounds as the schedule.
    courses: courseLedger(store, { maxAttempts: SCHEDULE_ATTEMPTS }),
    // The tutor's stream read to its head on every use (from the cached fold, so only what is new
    // is read): a zone change made through any process counts at once.
    tutor: tutors.facts,
    tutorCalendar: tutors.calendarOf,
    calendarRevision: (tutorId) => revisionsOfCalendars.of(tutorId),
    publicUrl: config.PUBLIC_URL,
    mailFrom: config.MAIL_FROM,
  });
  const courseCommands = courseHandlers(store);
  const promoCodes = promoCodesModule({
    sql,
    store,
    clock,
    // Stateless over PostgreSQL's counters: the same allowances as every other limiter instance.
    limiter: new RateLimiter(sql),
    checkLimits: promoCheckLimits(config),
  });
  const purchases = purchasesModule({
    sql,
    store,
    payments,
    publicUrl: config.PUBLIC_URL,
    students: {
      grade: async (studentId) => (await accountCommandHandlers.students.load(studentId)).grade || null,
      claimEnrollment: (input, step) => claimEnrollmentOnce(accountCommandHandlers, input, step),
      releaseEnrollment: (input, ctx) => releaseEnrollment(accountCommandHandlers, input, ctx),
    },
    courses: {
      ledger: async (courseId) => {
        const ledger = await courseCommands.courses.load(courseId);
        return {
          exists: ledger.exists,
          studentId: ledger.studentId,
          subjectId: ledger.subjectId,
          status: ledger.status,
          sessionsRemaining: sessionsRemainingOf(ledger),
          purchases: ledger.purchases,
        };
      },
      markRepurchase: (claim, ctx) => markRepurchasePending(courseCommands, claim, ctx),
      holdsRepurchase: (claim) => holdsRepurchase(courseCommands, claim),
      giveBackRepurchase: (claim, ctx) => clearRepurchase(courseCommands, { ...claim, outcome: 'given_back' }, ctx),
      courseIdOf: courseIdForPurchase,
      ledgerCommands: courseCommands.courses,
    },
    promos: {
      state: promoCodes.state,
      holdingUse: promoCodes.holdingUse,
    },
    waitFor: (projections, position, timeoutMs) => readYourWrites(sql, projections, position, timeoutMs),
  });
  const courses = coursesModule({
    sql,
    store,
    cancelSession: (sessionId, input, ctx) => sessions.cancel(sessionId, input, ctx),
    students: {
      tutorChosen: (input, ctx) => recordCourseTutorChosen(accountCommandHandlers, input, ctx),
      courseEnded: (input, ctx) => recordCourseEnded(accountCommandHandlers, input, ctx),
    },
  });
  const subjects = subjectsModule({ sql, store });
  const packages = packagesModule({ sql });
  const rateChanges = tutorHandlers(store);
  const payouts = payoutsModule({
    sql,
    store,
    clock,
    // The tutor's stream records rates (ChangeTutorRate stays with the tutor aggregate).
    changeTutorRate: (input, ctx) => changeTutorRate(rateChanges, input, ctx),
  });
  const operations = operationsModule({ sql, store, projections, reactors: reactorRunner, rebuilds });
  const identity: IdentityProvider =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? new (await import('./adapters/identity/googleIdentity.ts')).GoogleIdentityProvider({
          clientId: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
        })
      : new DevIdentityProvider(sql);
  const tutorStreams = tutorHandlers(store).tutors;
  const accounts = accountsModule({
    ...accountDeps,
    // An approved tutor finishes onboarding first: the tutor's stream knows (the read model may lag).
    tutorOnboardingPending: async (userId) => {
      const tutor = await tutorStreams.load(userId);
      return tutor.exists && !tutor.onboardingCompleted;
    },
  });
  const contact = contactModule({ store, rateLimiter: accountDeps.rateLimiter });
  const notices = noticesModule({ sql, store });
  const sessionStreams = sessionHandlers(store).sessions;
  const reviews = reviewsModule({ sql, store, loadSession: (sessionId) => sessionStreams.load(sessionId) });

  return {
    config,
    cookieSecret,
    log,
    signIns,
    accounts,
    contact,
    notices,
    reviews,
    sessions,
    purchases,
    courses,
    subjects,
    packages,
    promoCodes,
    payouts,
    operations,
    tutors,
    identity,
    calendar,
    calendarRevisions: revisionsOfCalendars,
    files,
    payments,
    clock,
    sql,
    databaseUrl,
    store,
    rawStore,
    vault,
    mailer,
    jobs,
    projections,
    reactors: reactorRunner,
    rebuilds,
    async close() {
      await rebuildWorker?.stop();
      await projections.stop();
      await reactorRunner.stop();
      await jobs.stop().catch(() => {});
      await store.close();
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}

/** SMTP when SMTP_URL is set, else the outbox table (the dev mailbox). */
function mailerFor(config: Config, mode: Mode, sql: Sql, vault: PersonalDataVault, log: Logger): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return new OutboxMailer(
    sql,
    (mail) => {
      // Where to look, not what: addresses and subject lines are personal data and stay out of logs.
      if (mode !== 'cli' && config.NODE_ENV !== 'production') log.info({ mailId: mail.id }, 'mail kept in the outbox (see /dev/mailbox)');
    },
    vault,
  );
}

/** Google Calendar with Google credentials (the tutors' own tokens, or a service account); else the sandbox. */
async function calendarFor(config: Config, sql: Sql): Promise<CalendarPort> {
  const oauthClient =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? { clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET }
      : undefined;
  if (!oauthClient && !config.GOOGLE_SERVICE_ACCOUNT_KEY) return new SandboxCalendar(sql);
  const { GoogleCalendar, readServiceAccountKey } = await import('./adapters/calendar/google/googleCalendar.ts');
  return new GoogleCalendar({
    ...(oauthClient ? { oauthClient } : {}),
    ...(config.GOOGLE_SERVICE_ACCOUNT_KEY
      ? { serviceAccount: readServiceAccountKey(config.GOOGLE_SERVICE_ACCOUNT_KEY, config.GOOGLE_SERVICE_ACCOUNT_EMAIL) }
      : {}),
  });
}

/**
 * Files live in PostgreSQL (`stored_files`) in every mode. An embedded install of an earlier
 * release kept them under `DATA_DIR/files`: a server process moves them into the table at start
 * (importLocalFiles: once, the table wins, moved files leave the disk). Only with the embedded
 * database, whose DATA_DIR is the install's own: with DATABASE_URL the folder may be a developer's,
 * so `npm run ops -- files:import` moves it when asked. The CLI never imports on its own.
 */
async function fileStorageFor(sql: Sql, importFrom: string | null, log: Logger): Promise<FileStorage> {
  const storage = new PostgresFileStorage(sql);
  if (importFrom) {
    const { imported, alreadyStored, leftOnDisk } = await importLocalFiles(path.join(importFrom, 'files'), storage);
    if (imported + alreadyStored > 0) log.info({ imported, alreadyStored }, 'moved the uploaded files of DATA_DIR/files into the database');
    if (leftOnDisk.length > 0)
      log.warn(
        { leftOnDisk: leftOnDisk.slice(0, 20), count: leftOnDisk.length },
        'files left under DATA_DIR/files: not a file key, or too large',
      );
  }
  return storage;
}

/** Without Stripe keys payments are the sandbox's, which must never take a production deployment's orders. */
function assertPaymentsConfigured(config: Config): void {
  if (config.NODE_ENV === 'production' && !config.STRIPE_SECRET_KEY) {
    throw new Error(
      'NODE_ENV=production needs Stripe: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (the sandbox payment provider is for development and tests only).',
    );
  }
}

/** Stripe when STRIPE_SECRET_KEY is set; else the sandbox provider in PostgreSQL. */
async function paymentsFor(config: Config, sql: Sql): Promise<PaymentPort> {
  if (!config.STRIPE_SECRET_KEY) return new SandboxPayments(sql, { publicUrl: config.PUBLIC_URL, environment: config.NODE_ENV });
  const { StripePayments } = await import('./adapters/payments/stripe/stripePayments.ts');
  return new StripePayments({
    secretKey: config.STRIPE_SECRET_KEY,
    publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? null,
  });
}
