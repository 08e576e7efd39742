import type { AccountDeps } from '../../commands/accounts/accountDeps.ts';
import { registerAccount } from '../../commands/accounts/registerUser.ts';
import { pushAddressOf } from '../../commands/tutors/calendarSync.ts';
import { tutorHandlers } from '../../commands/tutors/tutorHandlers.ts';
import type { SagaFeature, SagaPorts } from '../kit/sagaFeature.ts';
import { tutorCalendarSyncQueues, tutorCalendarWatchReactor, workTutorCalendarSync } from './tutorCalendarSyncSaga.ts';
import { TUTOR_HOURS_QUEUE, tutorHoursReactor, workTutorHours } from './tutorHoursSaga.ts';
import { TUTOR_MAIL_QUEUE, tutorMailReactor, workTutorMail } from './tutorMailSaga.ts';
import { tutorReviewSaga } from './tutorReviewSaga.ts';

/** What registration needs of a saga's ports; a tutor is registered without a password, so no hasher, sessions or rate limits. */
const unavailable = (port: string) =>
  new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`${port}.${String(property)} is not available to the tutor review workflow`);
      },
    },
  ) as never;

function registrationPort(ports: SagaPorts) {
  const deps: AccountDeps = {
    handlers: ports.accountHandlers,
    store: ports.store,
    sql: ports.sql,
    vault: ports.vault,
    hasher: unavailable('hasher'),
    signIns: unavailable('signIns'),
    rateLimiter: unavailable('rateLimiter'),
  };
  return (account: Parameters<typeof registerAccount>[1], ctx: Parameters<typeof registerAccount>[2]) =>
    registerAccount(deps, account, ctx);
}

export const tutorSagas: SagaFeature = {
  name: 'tutors',
  queues: [
    { name: TUTOR_MAIL_QUEUE, retryLimit: 5, retryDelaySeconds: 2 },
    // Calendar writes: provider outages and rate limits are retried with backoff.
    { name: TUTOR_HOURS_QUEUE, retryLimit: 6, retryDelaySeconds: 2 },
    // Google Calendar pushes, sync tokens and channel renewal.
    ...tutorCalendarSyncQueues,
  ],
  reactors: [tutorMailReactor, tutorHoursReactor, tutorCalendarWatchReactor],
  workflows: (ports) => [
    tutorReviewSaga({
      store: ports.store,
      sql: ports.sql,
      vault: ports.vault,
      tutors: tutorHandlers(ports.store),
      registerAccount: registrationPort(ports),
      jobs: ports.jobs,
      clock: ports.clock,
    }),
  ],
  work: async (ports) => {
    await workTutorMail(ports.jobs, ports);
    await workTutorHours(ports.jobs, { store: ports.store, calendar: ports.calendar, clock: ports.clock });
    await workTutorCalendarSync(ports.jobs, {
      sql: ports.sql,
      store: ports.store,
      calendar: ports.calendar,
      clock: ports.clock,
      pushAddress: pushAddressOf(ports.publicUrl),
      log: ports.log,
    });
  },
};
