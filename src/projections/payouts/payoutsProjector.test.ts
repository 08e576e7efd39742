import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { billingPeriodOfDay, PAYOUT_TIME_ZONE, type Span } from '../../domain/payouts/billingPeriod.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { projectors } from '../projectors.ts';
import { findTutorProfile } from '../tutors/queries.ts';
import { tutorsProjector } from '../tutors/tutorsProjector.ts';
import { payoutsProjector } from './payoutsProjector.ts';
import { payoutPeriodView, previewLines } from './queries.ts';

const at = '2026-11-01T12:00:00.000Z';
const period = (day: string): Span => {
  const p = billingPeriodOfDay(day, PAYOUT_TIME_ZONE);
  if (!p) throw new Error(day);
  return p;
};
const afterAll2027 = new Date('2027-06-01T00:00:00.000Z');

const parties = { tutorId: 't1', studentId: 'st1', courseId: 'c1' };
const booked = (sessionId: string, start: string, tutorId = 't1') =>
  event(`session-${sessionId}`, 'SessionBooked', {
    sessionId,
    ...parties,
    tutorId,
    studentUserId: 'u1',
    subjectId: 'math',
    subjectName: 'Math',
    start,
    end: new Date(Date.parse(start) + 3_600_000).toISOString(),
    durationMinutes: 60,
    notes: 'n',
    bookedBy: 'u1',
    bookedByRole: 'student',
    tutorTimeZone: PAYOUT_TIME_ZONE,
    studentTimeZone: PAYOUT_TIME_ZONE,
    at,
  });
const completed = (sessionId: string, tutorId = 't1') =>
  event(`session-${sessionId}`, 'SessionCompleted', {
    sessionId,
    ...parties,
    tutorId,
    studentUserId: 'u1',
    completedBy: tutorId,
    notes: 'done',
    at,
  });
const cancelled = (sessionId: string, start: string, credit: 'released' | 'forfeited') =>
  event(`session-${sessionId}`, 'SessionCancelled', {
    sessionId,
    ...parties,
    start,
    end: new Date(Date.parse(start) + 3_600_000).toISOString(),
    cancelledBy: 'u1',
    cancelledByRole: 'student',
    reason: 'sick',
    noticeMinutes: credit === 'forfeited' ? 60 : 2000,
    credit,
    tutorTimeZone: PAYOUT_TIME_ZONE,
    studentTimeZone: PAYOUT_TIME_ZONE,
    at,
  });
const rate = (hourlyRateCents: number, effectiveFrom: string, tutorId = 't1') =>
  event(`tutor-${tutorId}`, 'TutorRateChanged', {
    tutorId,
    userId: tutorId,
    hourlyRateCents,
    effectiveFrom,
    reason: 'review',
    changedBy: 'admin',
    at,
  });

describe('payouts read model', () => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('payouts');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, projectors);
    expect(projectors).toContain(tutorsProjector);
    expect(projectors).toContain(payoutsProjector);
  });
  afterAll(() => db.drop());

  /** Approves a period as the route does: the preview's lines, frozen in the event. */
  async function approve(day: string) {
    const p = period(day);
    const lines = await previewLines(db.sql, p);
    const totalCents = lines.reduce((s, l) => s + l.amountCents, 0);
    await spec.given(
      event(`payoutPeriod-${p.firstDay}`, 'PayoutPeriodApproved', {
        periodStart: p.firstDay,
        periodEnd: p.lastDay,
        lines,
        totalCents,
        approvedBy: 'fin',
        at,
      }),
    );
  }

  it('pays completed and forfeited sessions at the rate in force at their start, split at Toronto midnight between the 15th and 16th', async () => {
    await spec.given(
      event('tutor-t1', 'TutorProfileCreated', {
        tutorId: 't1',
        userId: 't1',
        applicationId: 'a1',
        hourlyRate: null,
        onboardingCompleted: true,
        at,
      }),
      rate(4000, '2026-10-01T04:00:00.000Z'),
      // Mid-period change: from Nov 10th, noon in Toronto.
      rate(4550, '2026-11-10T17:00:00.000Z'),
      // 15th 23:30 Toronto (EST, UTC−5) → first half; 16th 00:30 → second half.
      booked('s1', '2026-11-16T04:30:00.000Z'),
      completed('s1'),
      booked('s2', '2026-11-16T05:30:00.000Z'),
      completed('s2'),
      // A late cancellation (forfeited) is paid; a timely one and a session not held yet are not.
      booked('s3', '2026-11-05T15:00:00.000Z'),
      cancelled('s3', '2026-11-05T15:00:00.000Z', 'forfeited'),
      booked('s4', '2026-11-06T15:00:00.000Z'),
      cancelled('s4', '2026-11-06T15:00:00.000Z', 'released'),
      booked('s5', '2026-11-07T15:00:00.000Z'),
      // A tutor with no rate in force is listed, paid nothing.
      booked('s9', '2026-11-08T15:00:00.000Z', 't2'),
      completed('s9', 't2'),
    );
    const first = await payoutPeriodView(db.sql, period('2026-11-15'), afterAll2027);
    expect(first).toMatchObject({ period: { start: '2026-11-01', end: '2026-11-15' }, status: 'open', total: 85.5, ended: true });
    expect(first.lines.map((l) => [l.tutorId, l.kind, l.sessions, l.rate, l.amount, l.note])).toEqual([
      ['t1', 'sessions', 1, 40, 40, null],
      ['t1', 'sessions', 1, 45.5, 45.5, null],
      ['t2', 'sessions', 1, null, 0, 'No hourly rate in force'],
    ]);
    const second = await payoutPeriodView(db.sql, period('2026-11-16'), afterAll2027);
    expect(second.lines.map((l) => [l.tutorId, l.sessions, l.amount])).toEqual([['t1', 1, 45.5]]);
    expect(second).toMatchObject({ previousPeriodStart: '2026-11-01', nextPeriodStart: '2026-12-01' });
  });

  it('splits at month ends, February included', async () => {
    await spec.given(
      booked('f1', '2027-03-01T04:30:00.000Z'), // Feb 28th 23:30 Toronto
      completed('f1'),
      booked('f2', '2027-03-01T05:30:00.000Z'), // Mar 1st 00:30 Toronto
      completed('f2'),
    );
    const feb = await payoutPeriodView(db.sql, period('2027-02-20'), afterAll2027);
    expect(feb).toMatchObject({ period: { start: '2027-02-16', end: '2027-02-28' }, total: 45.5 });
    expect((await payoutPeriodView(db.sql, period('2027-03-01'), afterAll2027)).total).toBe(45.5);
  });

  it('freezes an approved period; later changes (a late completion, a retroactive rate) are adjustments of the next open period', async () => {
    await approve('2026-11-01');
    await spec.given(
      booked('s8', '2026-11-03T15:00:00.000Z'),
      completed('s8'),
      // Retroactive: from Nov 1st (Toronto midnight) 50.00, until the Nov 10th change.
      rate(5000, '2026-11-01T04:00:00.000Z'),
    );
    const first = await payoutPeriodView(db.sql, period('2026-11-01'), afterAll2027);
    expect(first).toMatchObject({ status: 'approved', total: 85.5 });
    const second = await payoutPeriodView(db.sql, period('2026-11-16'), afterAll2027);
    // Now owed for Nov 1–15: s3 and s8 at 50.00, s1 at 45.50 = 145.50; approved 85.50.
    expect(second.lines.map((l) => [l.tutorId, l.kind, l.sessions, l.rate, l.amount, l.adjusts])).toEqual([
      ['t1', 'sessions', 1, 45.5, 45.5, null],
      ['t1', 'adjustment', 1, null, 60, '2026-11-01'],
    ]);
    expect(second.total).toBe(105.5);
    expect(second.lines[1]?.note).toMatch(/2026-11-01/);

    // Approving the second period settles the adjustment: the third shows none.
    await approve('2026-11-16');
    expect((await payoutPeriodView(db.sql, period('2026-12-01'), afterAll2027)).lines).toEqual([]);
    // A correction after both approvals lands in the first open period after them.
    await spec.given(booked('s10', '2026-11-04T15:00:00.000Z'), completed('s10'));
    const december = await payoutPeriodView(db.sql, period('2026-12-01'), afterAll2027);
    expect(december.lines.map((l) => [l.kind, l.amount, l.adjusts])).toEqual([['adjustment', 50, '2026-11-01']]);
  });

  it('rebuilt from zero, gives the same approved figures, previews and adjustments to the cent', async () => {
    await spec.given(
      event('payoutPeriod-2026-11-01', 'PayoutPeriodMarkedPaid', {
        periodStart: '2026-11-01',
        method: 'e_transfer',
        reference: 'R1',
        paidBy: 'fin',
        at,
      }),
    );
    const days = ['2026-11-01', '2026-11-16', '2026-12-01', '2027-02-16', '2027-03-01'];
    const before = await Promise.all(days.map((d) => payoutPeriodView(db.sql, period(d), afterAll2027)));
    expect(before[0]).toMatchObject({ status: 'paid', method: 'e_transfer', reference: 'R1' });
    const rows = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(rows);
    expect(await Promise.all(days.map((d) => payoutPeriodView(db.sql, period(d), afterAll2027)))).toEqual(before);
    expect(spec.failures()).toEqual([]);
  });

  it("shows the tutor's profile the rate in force now, not a future one", async () => {
    await spec.given(rate(9900, '2099-01-01T00:00:00.000Z'));
    expect((await findTutorProfile(db.sql, 't1'))?.hourlyRate).toBe(45.5);
  });
});
