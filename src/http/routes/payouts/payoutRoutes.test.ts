import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { appendBookedSession, registeredStudent } from '../../../../tests/support/sessions.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { billingPeriodOf, PAYOUT_TIME_ZONE } from '../../../domain/payouts/billingPeriod.ts';
import { payoutPeriodViewSchema, payoutTutorSessionsSchema } from '../../../domain/payouts/payoutApi.ts';
import {
  ALREADY_APPROVED,
  ALREADY_PAID,
  NOT_APPROVED,
  NOTHING_TO_APPROVE,
  PERIOD_NOT_ENDED,
} from '../../../domain/payouts/payoutPeriodDecider.ts';
import { RATE_REASON_REQUIRED, TUTOR_NOT_FOUND } from '../../../domain/tutors/tutorDecider.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { PERIOD_INVALID } from './payoutRoutes.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
let finance: string;
let student: string;
let tutor: ApprovedTutor;
let formulaTutor: ApprovedTutor;

async function staff(role: 'admin' | 'finance') {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: `payouts-${role}`,
    email: `payouts-${role}@example.com`,
    firstName: 'Pay',
    lastName: role,
    password: 'Payouts-staff-2026!',
    role,
  });
  return `tm_session=${(await system.signIns.create(userId, role)).token}`;
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: Record<string, unknown>) =>
  app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });

/** A session held (completed by its tutor) at `start`, appended as the session routes would record it. */
async function heldSession(
  who: ApprovedTutor,
  start: string,
  student = { studentId: 'st-1', studentUserId: 'su-1' },
  details: { subjectName?: string } = {},
) {
  const parties = { tutorId: who.tutorId, ...student };
  const sessionId = await appendBookedSession(system.store, parties, start, details);
  const { position } = await system.store.append(
    `session-${sessionId}`,
    [
      {
        id: crypto.randomUUID(),
        type: 'SessionCompleted',
        metadata: {},
        data: { sessionId, ...parties, courseId: 'c-1', completedBy: who.userId, notes: 'ok', at: start },
      },
    ],
    'any',
  );
  expect(await waitForProjections(system.sql, ['payouts', 'sessions'], position, 30_000)).toBe(true);
  return sessionId;
}

const setRate = (who: string, body: Record<string, unknown>, cookie = admin) => call('PUT', `/api/admin/tutors/${who}/rate`, cookie, body);

beforeAll(async () => {
  admin = await staff('admin');
  finance = await staff('finance');
  student = (await registeredStudent(system, 'payouts')).cookie;
  tutor = await approvedTutor(system, 'pay1', { firstName: 'Ada', lastName: 'Lovelace' });
  formulaTutor = await approvedTutor(system, 'pay2', { firstName: '=HYPERLINK("http://x")', lastName: 'Evil,Name' });
});

describe('tutor rate change', () => {
  it('admins set a rate from an instant; the profile shows the rate in force now', async () => {
    const res = await setRate(tutor.tutorId, { hourlyRate: 45.5, effectiveFrom: '2026-09-01T04:00:00Z', reason: '  Starting rate ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tutorId: tutor.tutorId, hourlyRate: 45.5, effectiveFrom: '2026-09-01T04:00:00.000Z' });
    const future = await setRate(tutor.tutorId, { hourlyRate: 99, effectiveFrom: '2099-01-01T00:00:00Z', reason: 'Later' });
    expect(future.statusCode).toBe(200);
    expect((await call('GET', '/api/tutor/profile', tutor.cookie)).json()).toMatchObject({ hourlyRate: 45.5 });
    expect(
      (await setRate(formulaTutor.tutorId, { hourlyRate: 30, effectiveFrom: '2026-09-01T04:00:00Z', reason: 'Start' })).statusCode,
    ).toBe(200);
  });

  it('refuses finance, tutors and students (403), bad amounts and reasons (400) and unknown tutors (404), recording nothing', async () => {
    const before = (await system.store.readStream(`tutor-${tutor.tutorId}`)).length;
    const ok = { hourlyRate: 50, reason: 'Raise' };
    expect((await setRate(tutor.tutorId, ok, finance)).statusCode).toBe(403);
    expect((await setRate(tutor.tutorId, ok, tutor.cookie)).statusCode).toBe(403);
    expect((await setRate(tutor.tutorId, ok, student)).statusCode).toBe(403);
    for (const bad of [
      { hourlyRate: 45.555, reason: 'r' },
      { hourlyRate: 0, reason: 'r' },
      { hourlyRate: -5, reason: 'r' },
      { hourlyRate: 1_000_000, reason: 'r' },
      { hourlyRate: '45', reason: 'r' },
      { hourlyRate: 45, reason: 'x'.repeat(501) },
      { hourlyRate: 45, reason: 'r', effectiveFrom: 'yesterday' },
      { hourlyRate: 45 },
    ]) {
      expect((await setRate(tutor.tutorId, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const blank = await setRate(tutor.tutorId, { hourlyRate: 45, reason: '   ' });
    expect([blank.statusCode, blank.json().message]).toEqual([400, RATE_REASON_REQUIRED]);
    const unknown = await setRate('no-such-tutor', ok);
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, TUTOR_NOT_FOUND]);
    expect((await system.store.readStream(`tutor-${tutor.tutorId}`)).length).toBe(before);
  });
});

describe('payouts over HTTP', () => {
  it('shows a period to admins and finance with names, rates and amounts; refuses others and bad dates', async () => {
    await heldSession(tutor, '2026-10-05T15:00:00.000Z');
    await heldSession(tutor, '2026-10-16T03:30:00.000Z'); // Oct 15th 23:30 Toronto
    await heldSession(formulaTutor, '2026-10-10T15:00:00.000Z');
    await heldSession(tutor, '2026-10-16T04:30:00.000Z'); // Oct 16th 00:30 Toronto: the next period
    for (const cookie of [admin, finance]) {
      const res = await call('GET', '/api/admin/payouts?period=2026-10-09', cookie);
      expect(res.statusCode, res.body).toBe(200);
      const view = payoutPeriodViewSchema.parse(res.json());
      expect(view).toMatchObject({ period: { start: '2026-10-01', end: '2026-10-15' }, status: 'open', total: 121, ended: true });
      expect(view.lines.map((l) => [l.tutorName, l.kind, l.sessions, l.hours, l.rate, l.amount])).toEqual([
        ['=HYPERLINK("http://x") Evil,Name', 'sessions', 1, 1, 30, 30],
        ['Ada Lovelace', 'sessions', 2, 2, 45.5, 91],
      ]);
    }
    expect((await call('GET', '/api/admin/payouts?period=2026-10-09', student)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/payouts?period=2026-10-09', tutor.cookie)).statusCode).toBe(403);
    for (const bad of ['x', '2026-02-30', '2026-1-01', `2026-10-0${'9'.repeat(2000)}`]) {
      const res = await call('GET', `/api/admin/payouts?period=${bad}`, finance);
      expect(res.statusCode, bad).toBe(400);
    }
    expect((await call('GET', '/api/admin/payouts?period=2026-02-30', finance)).json().message).toBe(PERIOD_INVALID);
  });

  it('approves an ended period once under 10 concurrent requests, and refuses a running one', async () => {
    const approvals = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/api/admin/payouts/2026-10-01/approve', finance)));
    const codes = approvals.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    const won = approvals.find((r) => r.statusCode === 200);
    expect(won?.json()).toMatchObject({ status: 'approved', total: 121 });
    expect(approvals.find((r) => r.statusCode === 409)?.json().message).toBe(ALREADY_APPROVED);
    expect((await system.store.readStream('payoutPeriod-2026-10-01')).map((e) => e.type)).toEqual(['PayoutPeriodApproved']);

    const running = billingPeriodOf(new Date(), PAYOUT_TIME_ZONE).firstDay;
    const early = await call('POST', `/api/admin/payouts/${running}/approve`, admin);
    expect([early.statusCode, early.json().message]).toEqual([422, PERIOD_NOT_ENDED]);
    expect((await call('POST', '/api/admin/payouts/2026-10-02/approve', admin)).statusCode).toBe(400);
    // An ended period without sessions: nothing to approve, nothing recorded.
    const empty = await call('POST', '/api/admin/payouts/2025-03-01/approve', finance);
    expect([empty.statusCode, empty.json().message]).toEqual([422, NOTHING_TO_APPROVE]);
    expect(await system.store.readStream('payoutPeriod-2025-03-01')).toEqual([]);
    expect((await call('POST', '/api/admin/payouts/2026-10-01/approve', student)).statusCode).toBe(403);
  });

  it('a session completed after approval is an adjustment of the next period; the approved one does not move', async () => {
    await heldSession(tutor, '2026-10-07T15:00:00.000Z');
    const approved = payoutPeriodViewSchema.parse((await call('GET', '/api/admin/payouts?period=2026-10-01', finance)).json());
    expect(approved.total).toBe(121);
    const next = payoutPeriodViewSchema.parse((await call('GET', '/api/admin/payouts?period=2026-10-16', finance)).json());
    expect(next.lines.map((l) => [l.tutorName, l.kind, l.amount, l.adjusts])).toEqual([
      ['Ada Lovelace', 'sessions', 45.5, null],
      ['Ada Lovelace', 'adjustment', 45.5, '2026-10-01'],
    ]);
  });

  it('marks an approved period paid once; refuses an open one and bad input', async () => {
    const open = await call('POST', '/api/admin/payouts/2026-09-01/mark-paid', finance, { method: 'e_transfer', reference: 'X' });
    expect([open.statusCode, open.json().message]).toEqual([409, NOT_APPROVED]);
    for (const bad of [
      { method: 'cash', reference: 'X' },
      { method: 'e_transfer', reference: 'x'.repeat(201) },
      { method: 'e_transfer' },
    ]) {
      expect((await call('POST', '/api/admin/payouts/2026-10-01/mark-paid', finance, bad)).statusCode).toBe(400);
    }
    const paid = await call('POST', '/api/admin/payouts/2026-10-01/mark-paid', finance, { method: 'e_transfer', reference: ' ET-77 ' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', method: 'e_transfer', reference: 'ET-77' });
    const again = await call('POST', '/api/admin/payouts/2026-10-01/mark-paid', admin, { method: 'cheque', reference: 'C1' });
    expect([again.statusCode, again.json().message]).toEqual([409, ALREADY_PAID]);
  });

  it('exports the period as CSV: 2-decimal amounts, a total row, formula cells neutralised, a dated filename', async () => {
    const res = await call('GET', '/api/admin/payouts/2026-10-01.csv', finance);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="topmark-payouts-2026-10-01-to-2026-10-15.csv"');
    const rows = res.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('period_start,period_end,status,kind,tutor_id,tutor_name,sessions,hours,rate,amount,note');
    expect(rows).toContain(`2026-10-01,2026-10-15,paid,sessions,${tutor.tutorId},Ada Lovelace,2,2,45.50,91.00,`);
    expect(rows).toContain(
      `2026-10-01,2026-10-15,paid,sessions,${formulaTutor.tutorId},"'=HYPERLINK(""http://x"") Evil,Name",1,1,30.00,30.00,`,
    );
    expect(rows.at(-1)).toBe('2026-10-01,2026-10-15,paid,total,,,,,,121.00,');
    expect((await call('GET', '/api/admin/payouts/2026-10-01.csv', student)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/payouts/2026-10-03.csv', finance)).statusCode).toBe(400);
  });
});

describe("payout drill-down: the sessions behind a tutor's lines", () => {
  const drill = (periodStart: string, tutorId: string, cookie: string) =>
    call('GET', `/api/admin/payouts/${periodStart}/tutors/${encodeURIComponent(tutorId)}/sessions`, cookie);

  it("lists each payable session (start, student, subject, length, rate, amount); each line's sessions add up to it", async () => {
    const nora = await registeredStudent(system, 'payouts-drill', { firstName: 'Nora', lastName: 'Quinn' });
    const who = { studentId: nora.studentId, studentUserId: nora.userId };
    // A raise from Nov 8th: the tutor's November period has two lines, one per rate.
    expect((await setRate(tutor.tutorId, { hourlyRate: 50, effectiveFrom: '2026-11-08T05:00:00Z', reason: 'Raise' })).statusCode).toBe(200);
    const first = await heldSession(tutor, '2026-11-03T15:00:00.000Z', who, { subjectName: 'Algebra 1' });
    const second = await heldSession(tutor, '2026-11-10T16:00:00.000Z', who, { subjectName: 'Calculus' });
    const third = await heldSession(tutor, '2026-11-12T16:00:00.000Z', who, { subjectName: 'Calculus' });
    // Another tutor's session in the same period is not in this tutor's drill-down.
    await heldSession(formulaTutor, '2026-11-04T15:00:00.000Z', who);
    const view = payoutPeriodViewSchema.parse((await call('GET', '/api/admin/payouts?period=2026-11-01', finance)).json());
    const lines = view.lines.filter((l) => l.tutorId === tutor.tutorId);
    expect(lines.map((l) => [l.sessions, l.rate, l.amount])).toEqual([
      [1, 45.5, 45.5],
      [2, 50, 100],
    ]);

    for (const cookie of [admin, finance]) {
      const res = await drill('2026-11-01', tutor.tutorId, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const body = payoutTutorSessionsSchema.parse(res.json());
      expect(body).toMatchObject({ period: { start: '2026-11-01', end: '2026-11-15' }, tutorName: 'Ada Lovelace', total: 145.5 });
      expect(
        body.sessions.map((s) => [s.sessionId, s.start, s.studentName, s.subject, s.durationMinutes, s.status, s.rate, s.amount]),
      ).toEqual([
        [first, '2026-11-03T15:00:00.000Z', 'Nora Quinn', 'Algebra 1', 60, 'completed', 45.5, 45.5],
        [second, '2026-11-10T16:00:00.000Z', 'Nora Quinn', 'Calculus', 60, 'completed', 50, 50],
        [third, '2026-11-12T16:00:00.000Z', 'Nora Quinn', 'Calculus', 60, 'completed', 50, 50],
      ]);
      for (const line of lines) {
        const behind = body.sessions.filter((s) => s.rate === line.rate);
        expect([behind.length, behind.reduce((sum, s) => sum + s.amount, 0)]).toEqual([line.sessions, line.amount]);
      }
    }
  });

  it('refuses tutors and students (403) and a day that does not start a period (400)', async () => {
    expect((await drill('2026-11-01', tutor.tutorId, student)).statusCode).toBe(403);
    expect((await drill('2026-11-01', tutor.tutorId, tutor.cookie)).statusCode).toBe(403);
    expect((await drill('2026-11-01', tutor.tutorId, '')).statusCode).toBe(401);
    expect((await drill('2026-11-03', tutor.tutorId, finance)).statusCode).toBe(400);
    // The router refuses a path parameter over 100 characters before the schema sees it.
    expect((await drill('2026-11-01', 'x'.repeat(101), finance)).statusCode).toBe(414);
    const nobody = await drill('2026-11-01', 'no-such-tutor', finance);
    expect(nobody.statusCode).toBe(200);
    expect(nobody.json()).toMatchObject({ sessions: [], total: 0 });
  });
});
