import {
  CALENDAR_ERASURE_RETRY_LIMIT,
  eraseSessionCalendar,
  SESSION_CALENDAR_ERASURE_QUEUE,
  type SessionCalendarErasureJob,
} from '../../commands/sessions/sessionCalendarErasure.ts';
import { openTutorCalendar } from '../../commands/tutors/tutorCalendar.ts';
import type { SagaFeature } from '../kit/sagaFeature.ts';
import { ORPHANED_CLAIM_QUEUE, orphanedClaimReactor, workOrphanedClaims } from './orphanedClaimSweep.ts';
import {
  CALENDAR_RETRY_LIMIT,
  SESSION_CALENDAR_QUEUE,
  SESSION_CALENDAR_RESYNC_QUEUE,
  sessionCalendarReactor,
  workSessionCalendar,
} from './sessionCalendarSaga.ts';
import { SESSION_NOTICE_QUEUE, sessionNoticeReactor, workSessionNotices } from './sessionNotices.ts';
import { SESSION_REMINDER_QUEUE, sessionReminderReactor, workSessionReminders } from './sessionReminders.ts';
import { SESSION_SETTLEMENT_QUEUE, sessionSettlementReactor, workSessionSettlement } from './sessionSettlement.ts';

export const sessionSagas: SagaFeature = {
  name: 'sessions',
  queues: [
    { name: SESSION_REMINDER_QUEUE, retryLimit: 8, retryDelaySeconds: 30 },
    // Booked, moved, cancelled, completed: one job per change, mailed to the family and the tutor.
    { name: SESSION_NOTICE_QUEUE, retryLimit: 8, retryDelaySeconds: 5 },
    // Calendar writes: provider outages and rate limits retried with exponential backoff, then recorded as failed.
    { name: SESSION_CALENDAR_QUEUE, retryLimit: CALENDAR_RETRY_LIMIT, retryDelaySeconds: 2 },
    { name: SESSION_CALENDAR_RESYNC_QUEUE, retryLimit: 0 },
    // An erased family taken out of a session's calendar events (queued by the account deletion workflow).
    { name: SESSION_CALENDAR_ERASURE_QUEUE, retryLimit: CALENDAR_ERASURE_RETRY_LIMIT, retryDelaySeconds: 5 },
    { name: ORPHANED_CLAIM_QUEUE, retryLimit: 10, retryDelaySeconds: 60 },
    // Credit and hour of a cancelled or completed session whose request died before settling them.
    { name: SESSION_SETTLEMENT_QUEUE, retryLimit: 10, retryDelaySeconds: 60 },
  ],
  reactors: [sessionNoticeReactor, sessionReminderReactor, sessionCalendarReactor, orphanedClaimReactor, sessionSettlementReactor],
  work: async (ports) => {
    const noticeDeps = { sql: ports.sql, store: ports.store, mailer: ports.mailer, mailFrom: ports.mailFrom, publicUrl: ports.publicUrl };
    await workSessionNotices(ports.jobs, noticeDeps);
    await workSessionReminders(ports.jobs, noticeDeps);
    await workOrphanedClaims(ports.jobs, ports.store, ports.clock);
    await workSessionSettlement(ports.jobs, ports.store, ports.clock);
    const calendarDeps = { store: ports.store, calendar: ports.calendar, clock: ports.clock };
    const openCalendar = async (tutorId: string) => (await openTutorCalendar(calendarDeps, tutorId)).calendar;
    await workSessionCalendar(ports.jobs, { sql: ports.sql, store: ports.store, openCalendar, clock: ports.clock });
    await ports.jobs.work<SessionCalendarErasureJob>(
      SESSION_CALENDAR_ERASURE_QUEUE,
      async (job) => {
        await eraseSessionCalendar({ store: ports.store, openCalendar }, job.sessionId);
      },
      { keyOf: (job) => job.sessionId },
    );
  },
};
