import type { TransactionSql } from '../../../adapters/db/db.ts';
import { defineProjection, type ProjectedEvent } from '../../kit/defineProjection.ts';
import { insertRows } from '../../kit/writes.ts';
import { courseTutorEvents, isCourseTutorEvent, trackCourseTutors } from './courseTutorAlerts.ts';
import { type AlertRow, alertCourses, alertSubjects, alerts, alertTutors } from './tables.ts';

type AlertEvent = ProjectedEvent<
  | 'ProjectorStopped'
  | 'EventParked'
  | 'JobGaveUp'
  | 'TutorCalendarAccessLost'
  | 'PurchaseFailed'
  | 'SessionCalendarSyncFailed'
  | 'SessionCalendarEventMoved'
  | 'SessionCancelled'
  | 'PurchaseRefundedAtProvider'
  | 'PromoCodeGuessingFlagged'
>;

function alertOf(e: AlertEvent): AlertRow {
  const common = {
    id: e.id,
    severity: 'high',
    is_resolved: false,
    resolved_at: null,
    resolved_by: null,
    resolution_note: null,
    user_id: null,
    student_id: null,
    session_id: null,
    purchase_id: null,
    metadata: e.data,
    created_at: e.recordedAt.toISOString(),
  } as const;
  switch (e.type) {
    case 'ProjectorStopped':
      return {
        ...common,
        type: 'projection_stopped',
        title: `Projection ${e.data.projector} stopped`,
        description: `It could not apply event ${e.data.eventId} (${e.data.eventType}): ${e.data.error}`,
      };
    case 'EventParked':
      return {
        ...common,
        type: 'event_parked',
        title: `Projection ${e.data.projector} parked an event`,
        description: `${e.data.eventId} (${e.data.eventType}) in ${e.data.streamId}: ${e.data.error}. Retry or skip it with projections:retry / projections:skip.`,
      };
    case 'TutorCalendarAccessLost':
      return {
        ...common,
        type: 'calendar_invalid_grant',
        user_id: e.data.userId,
        title: 'A tutor’s calendar can no longer be reached',
        description: `Google refused the tutor’s authorisation (${e.data.reason}): bookings cannot be written to their calendar until they sign in with Google again.`,
      };
    case 'PurchaseFailed':
      return {
        ...common,
        type: 'payment_failed',
        severity: 'medium',
        purchase_id: e.data.purchaseId,
        title: 'A payment failed',
        description: `Purchase ${e.data.purchaseId}: ${e.data.message} (${e.data.reason}). The promo code use and the course slot were released.`,
      };
    case 'SessionCalendarSyncFailed':
      return {
        ...common,
        type: 'calendar_sync_failed',
        user_id: e.data.tutorId,
        session_id: e.data.sessionId,
        title: 'A session could not be written to the tutor’s calendar',
        description: `Session ${e.data.sessionId} at ${e.data.start}: ${e.data.message} (${e.data.reason}, ${e.data.attempts} attempt(s)). It is tried again at the next sync.`,
      };
    case 'SessionCalendarEventMoved':
      return {
        ...common,
        type: 'calendar_event_moved',
        severity: 'medium',
        user_id: e.data.tutorId,
        session_id: e.data.sessionId,
        title: 'A session was moved in the tutor’s calendar, not in Topmark',
        description: `Session ${e.data.sessionId} is booked for ${e.data.sessionStart}, but its calendar event now starts at ${e.data.calendarStart}. Reschedule the session in Topmark or move the event back.`,
      };
    case 'SessionCancelled':
      return {
        ...common,
        type: 'late_cancellation',
        severity: 'low',
        user_id: e.data.tutorId,
        student_id: e.data.studentId,
        session_id: e.data.sessionId,
        title: 'A session was cancelled less than 12 hours before its start',
        description: `Session ${e.data.sessionId} at ${e.data.start} was cancelled by the ${e.data.cancelledByRole} ${noticeOf(e.data.noticeMinutes)}: the credit was forfeited and the tutor is paid for the hour. Check with the family if this keeps happening.`,
      };
    case 'PurchaseRefundedAtProvider':
      return {
        ...common,
        type: 'refund_outside_topmark',
        purchase_id: e.data.purchaseId,
        title: 'A payment was refunded outside Topmark',
        description: `Purchase ${e.data.purchaseId}: the payment provider reports ${centsOf(e.data.amountRefundedCents)} of ${centsOf(e.data.amountCents)} refunded on ${e.data.paymentIntentId}, ${centsOf(e.data.unexplainedCents)} of it not through Topmark (a refund in the provider's dashboard, or one Topmark gave up on that went through). The family's sessions are unchanged: decide whether they should stay.`,
      };
    case 'PromoCodeGuessingFlagged':
      return {
        ...common,
        type: 'promo_code_guessing',
        severity: 'medium',
        user_id: e.data.userId,
        title: 'An account keeps trying promo codes that do not exist',
        description: `Account ${e.data.userId} tried ${e.data.misses} unknown promo codes within ${Math.round(e.data.windowSeconds / 60)} minutes (window from ${e.data.windowStart}). Its checks are limited per minute; look at the account and deactivate it if it is guessing.`,
      };
    default:
      return {
        ...common,
        type: 'job_failed',
        title: `Background job ${e.data.queue} gave up`,
        description: `Job ${e.data.jobId} failed ${e.data.attempts} times: ${e.data.error}`,
      };
  }
}

const centsOf = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const noticeOf = (minutes: number) =>
  minutes <= 0 ? 'after it had started' : `${Math.floor(minutes / 60)} h ${minutes % 60} min before its start`;

/** Only a cancellation that forfeits the credit (the 12-hour rule) needs a person's eye. */
const raises = (e: AlertEvent) => e.type !== 'SessionCancelled' || e.data.credit === 'forfeited';

/** A tutor who authorised Google again closes their open calendar alert. */
async function resolveCalendarAlerts(tx: TransactionSql, restored: ProjectedEvent<'TutorCalendarAccessRestored'>): Promise<void> {
  await tx`UPDATE alerts SET is_resolved = true, resolved_at = ${restored.recordedAt.toISOString()}, resolved_by = 'system'
           WHERE type = 'calendar_invalid_grant' AND user_id = ${restored.data.userId} AND NOT is_resolved`;
}

/**
 * Sessions' calendar events written after all close their sync-failure alerts: the integration
 * recovered by itself. One statement for a run of them (every booking writes one); a session
 * written twice in the run is resolved by the first.
 */
async function resolveSyncAlerts(tx: TransactionSql, written: readonly ProjectedEvent<'SessionCalendarEventWritten'>[]): Promise<void> {
  const first = new Map<string, string>();
  for (const e of written) if (!first.has(e.data.sessionId)) first.set(e.data.sessionId, e.recordedAt.toISOString());
  await tx`UPDATE alerts a SET is_resolved = true, resolved_at = x.at, resolved_by = 'system'
           FROM unnest(${[...first.keys()]}::text[], ${[...first.values()]}::timestamptz[]) AS x(session_id, at)
           WHERE a.type = 'calendar_sync_failed' AND a.session_id = x.session_id AND NOT a.is_resolved`;
}

/** An admin closed the alert with a note; the first resolution stands (the alert's stream allows one). */
async function resolveAlert(tx: TransactionSql, resolved: ProjectedEvent<'AlertResolved'>): Promise<void> {
  await tx`UPDATE alerts SET is_resolved = true, resolved_at = ${resolved.data.at}, resolved_by = ${resolved.data.resolvedBy},
             resolution_note = ${resolved.data.note}
           WHERE id = ${resolved.data.alertId} AND NOT is_resolved`;
}

/** The alerts table, fed by the platform's own failure events and by tutors' calendars that stopped answering. */
export const alertsProjector = defineProjection({
  name: 'alerts',
  handles: [
    'ProjectorStopped',
    'EventParked',
    'JobGaveUp',
    'TutorCalendarAccessLost',
    'TutorCalendarAccessRestored',
    'PurchaseFailed',
    'SessionCalendarSyncFailed',
    'SessionCalendarEventMoved',
    'SessionCalendarEventWritten',
    'SessionCancelled',
    'PurchaseRefundedAtProvider',
    'PromoCodeGuessingFlagged',
    'AlertResolved',
    ...courseTutorEvents,
  ],
  tables: [alerts, alertCourses, alertTutors, alertSubjects],
  async apply(tx, events) {
    // Set-based by runs, in log order: each resolution acts on what was raised before it, and
    // not on what is raised after it.
    let raised: AlertRow[] = [];
    let written: ProjectedEvent<'SessionCalendarEventWritten'>[] = [];
    const flushRaised = async () => {
      await insertRows(tx, alerts, raised, 'nothing');
      raised = [];
    };
    const flushWritten = async () => {
      if (written.length > 0) await resolveSyncAlerts(tx, written);
      written = [];
    };
    for (const e of events) {
      if (isCourseTutorEvent(e)) {
        // Tracking reads what earlier events wrote, and resolves alerts raised before it.
        await flushWritten();
        await flushRaised();
        raised.push(...(await trackCourseTutors(tx, e)));
      } else if (e.type === 'SessionCalendarEventWritten') {
        await flushRaised();
        written.push(e);
      } else if (e.type === 'TutorCalendarAccessRestored' || e.type === 'AlertResolved') {
        await flushRaised();
        await flushWritten();
        if (e.type === 'AlertResolved') await resolveAlert(tx, e);
        else await resolveCalendarAlerts(tx, e);
      } else {
        await flushWritten();
        if (raises(e)) raised.push(alertOf(e));
      }
    }
    await flushWritten();
    await flushRaised();
  },
});
