import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { migrate } from '../../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../../kit/projectionSpec.ts';
import { alertsProjector } from './alertsProjector.ts';
import { openAlerts } from './queries.ts';
import { alerts } from './tables.ts';

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('alerts, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('alerts');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [alertsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a stopped projector and a job that gave up each raise one open alert', async () => {
    const [stoppedId, gaveUpId] = [randomUUID(), randomUUID()];
    const stopped = {
      projector: 'users',
      eventId: 'e-1',
      eventType: 'UserRegistered',
      error: 'boom',
      stoppedAt: '2025-06-01T00:00:00.000Z',
    };
    const gaveUp = { queue: 'contact-mail', jobId: 'j-1', error: 'smtp down', attempts: 5, gaveUpAt: '2025-06-01T00:00:00.000Z' };
    await spec.given(
      event('projectorFailure-users-e-1', 'ProjectorStopped', stopped, { id: stoppedId }),
      event('jobFailure-j-1', 'JobGaveUp', gaveUp, { id: gaveUpId }),
    );
    const rows = await spec.rows(alerts);
    expect(rows.find((r) => r.id === stoppedId)).toMatchObject({
      type: 'projection_stopped',
      title: 'Projection users stopped',
      description: 'It could not apply event e-1 (UserRegistered): boom',
      severity: 'high',
      is_resolved: false,
      resolved_at: null,
      metadata: stopped,
    });
    expect(rows.find((r) => r.id === gaveUpId)).toMatchObject({
      type: 'job_failed',
      title: 'Background job contact-mail gave up',
      description: 'Job j-1 failed 5 times: smtp down',
      severity: 'high',
      metadata: gaveUp,
    });
    expect(rows.every((r) => r.created_at instanceof Date)).toBe(true);
    expect((await openAlerts(db.sql)).map((a) => a.id).sort()).toEqual([stoppedId, gaveUpId].sort());
  });

  it('a tutor whose calendar grant was revoked raises a calendar alert; authorising again resolves it', async () => {
    const tutorId = randomUUID();
    const [lostId, lostAgainId] = [randomUUID(), randomUUID()];
    const stream = `tutor-${tutorId}`;
    const lost = { tutorId, userId: tutorId, reason: 'invalid_grant', at: '2025-06-01T00:00:00.000Z' };
    await spec.given(
      event(stream, 'TutorCalendarAccessLost', lost, { id: lostId }),
      event(stream, 'TutorCalendarAccessRestored', { tutorId, userId: tutorId, at: '2025-06-02T00:00:00.000Z' }),
      event(stream, 'TutorCalendarAccessLost', { ...lost, at: '2025-06-03T00:00:00.000Z' }, { id: lostAgainId }),
    );
    const rows = await spec.rows(alerts, { user_id: tutorId });
    expect(rows.find((r) => r.id === lostId)).toMatchObject({
      type: 'calendar_invalid_grant',
      severity: 'high',
      user_id: tutorId,
      is_resolved: true,
      resolved_by: 'system',
      metadata: lost,
    });
    expect(rows.find((r) => r.id === lostId)?.resolved_at).toBeInstanceOf(Date);
    expect(rows.find((r) => r.id === lostAgainId)).toMatchObject({ type: 'calendar_invalid_grant', is_resolved: false });
    expect((await openAlerts(db.sql)).map((a) => a.id)).toContain(lostAgainId);
    expect((await openAlerts(db.sql)).map((a) => a.id)).not.toContain(lostId);
  });

  it('a failed payment raises a payment_failed alert naming the purchase', async () => {
    const purchaseId = randomUUID();
    const failedId = randomUUID();
    const failed = { purchaseId, reason: 'card_declined', message: 'Your card was declined.', at: '2025-06-01T00:00:00.000Z' };
    await spec.given(event(`purchase-${purchaseId}`, 'PurchaseFailed', failed, { id: failedId }));
    const row = (await spec.rows(alerts)).find((r) => r.id === failedId);
    expect(row).toMatchObject({
      type: 'payment_failed',
      severity: 'medium',
      purchase_id: purchaseId,
      is_resolved: false,
      metadata: failed,
    });
    expect(row?.description).toContain('Your card was declined.');
  });

  it('an admin resolves an alert with a note; a second resolution of it changes nothing', async () => {
    const alertId = randomUUID();
    const gaveUp = { queue: 'calendar-sync', jobId: `j-${alertId}`, error: 'timeout', attempts: 5, gaveUpAt: '2025-06-01T00:00:00.000Z' };
    const resolved = { alertId, note: 'Resent by hand', resolvedBy: 'admin-1', at: '2025-06-02T00:00:00.000Z' };
    await spec.given(
      event(`jobFailure-j-${alertId}`, 'JobGaveUp', gaveUp, { id: alertId }),
      event(`alert-${alertId}`, 'AlertResolved', resolved),
      event(`alert-${alertId}`, 'AlertResolved', { ...resolved, note: 'later', resolvedBy: 'admin-2' }),
    );
    const row = (await spec.rows(alerts)).find((r) => r.id === alertId);
    expect(row).toMatchObject({ is_resolved: true, resolved_by: 'admin-1', resolution_note: 'Resent by hand' });
    expect(row?.resolved_at).toEqual(new Date('2025-06-02T00:00:00.000Z'));
    expect((await openAlerts(db.sql)).map((a) => a.id)).not.toContain(alertId);
  });

  it('a session the calendar refused raises calendar_sync_failed, closed by the system once written; a move there is flagged', async () => {
    const sessionId = randomUUID();
    const [failedId, movedId] = [randomUUID(), randomUUID()];
    const ref = { sessionId, tutorId: 't-1' };
    const start = '2026-12-01T15:00:00.000Z';
    await spec.given(
      event(
        `sessionCalendar-${sessionId}`,
        'SessionCalendarSyncFailed',
        { ...ref, start, reason: 'forbidden', message: 'Calendar Permission Error', attempts: 1, at: start },
        { id: failedId },
      ),
    );
    expect((await openAlerts(db.sql)).find((a) => a.id === failedId)).toMatchObject({
      type: 'calendar_sync_failed',
      session_id: sessionId,
      user_id: 't-1',
    });
    await spec.given(
      event(`sessionCalendar-${sessionId}`, 'SessionCalendarEventWritten', {
        ...ref,
        calendarEventId: 'e0',
        start,
        end: start,
        meetingLink: null,
        at: start,
      }),
      event(
        `sessionCalendar-${sessionId}`,
        'SessionCalendarEventMoved',
        { ...ref, calendarEventId: 'e0', sessionStart: start, calendarStart: '2026-12-01T17:00:00.000Z', at: start },
        { id: movedId },
      ),
    );
    const rows = await spec.rows(alerts);
    expect(rows.find((r) => r.id === failedId)).toMatchObject({ is_resolved: true, resolved_by: 'system' });
    expect(rows.find((r) => r.id === movedId)).toMatchObject({ type: 'calendar_event_moved', is_resolved: false, severity: 'medium' });
  });

  it('a run of written calendar events closes each session’s earlier failure, not a failure raised after it', async () => {
    const [s1, s2] = [randomUUID(), randomUUID()];
    const [failed1, failed2, failedAgain] = [randomUUID(), randomUUID(), randomUUID()];
    const start = '2026-12-02T15:00:00.000Z';
    const failure = (sessionId: string, id: string) =>
      event(
        `sessionCalendar-${sessionId}`,
        'SessionCalendarSyncFailed',
        { sessionId, tutorId: 't-2', start, reason: 'unavailable', message: 'Calendar down', attempts: 5, at: start },
        { id },
      );
    const written = (sessionId: string) =>
      event(`sessionCalendar-${sessionId}`, 'SessionCalendarEventWritten', {
        sessionId,
        tutorId: 't-2',
        calendarEventId: `e-${sessionId}`,
        start,
        end: start,
        meetingLink: null,
        at: start,
      });
    await spec.given(failure(s1, failed1), failure(s2, failed2), written(s1), written(s2), written(s1), failure(s1, failedAgain));
    const rows = await spec.rows(alerts);
    expect(rows.find((r) => r.id === failed1)).toMatchObject({ is_resolved: true, resolved_by: 'system' });
    expect(rows.find((r) => r.id === failed2)).toMatchObject({ is_resolved: true, resolved_by: 'system' });
    expect(rows.find((r) => r.id === failedAgain)).toMatchObject({ type: 'calendar_sync_failed', is_resolved: false });
  });

  it('a cancellation that forfeits the credit raises a late_cancellation alert; one in time raises none', async () => {
    const [lateId, inTimeId] = [randomUUID(), randomUUID()];
    const cancelled = (sessionId: string, credit: 'released' | 'forfeited', noticeMinutes: number, id: string) =>
      event(
        `session-${sessionId}`,
        'SessionCancelled',
        {
          sessionId,
          tutorId: 't-9',
          studentId: 's-9',
          courseId: 'c-9',
          start: '2026-12-02T15:00:00.000Z',
          end: '2026-12-02T16:00:00.000Z',
          cancelledBy: 'u-9',
          cancelledByRole: 'parent',
          reason: 'Sick',
          noticeMinutes,
          credit,
          tutorTimeZone: 'America/Toronto',
          studentTimeZone: 'America/Toronto',
          at: '2026-12-02T12:00:00.000Z',
        },
        { id },
      );
    await spec.given(cancelled('late-1', 'forfeited', 185, lateId), cancelled('in-time-1', 'released', 2000, inTimeId));
    const rows = await spec.rows(alerts);
    expect(rows.find((r) => r.id === lateId)).toMatchObject({
      type: 'late_cancellation',
      severity: 'low',
      session_id: 'late-1',
      student_id: 's-9',
      user_id: 't-9',
      is_resolved: false,
    });
    expect(rows.find((r) => r.id === lateId)?.description).toContain('by the parent 3 h 5 min before its start');
    expect(rows.find((r) => r.id === inTimeId)).toBeUndefined();
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
