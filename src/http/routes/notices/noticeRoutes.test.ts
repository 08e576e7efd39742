import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appendBookedSession,
  appendCancelled,
  appendRescheduled,
  hourFromNow,
  registeredParent,
  registeredStudent,
  type SessionParties,
} from '../../../../tests/support/sessions.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { approvedTutor } from '../../../../tests/support/tutors.ts';
import type { Notice } from '../../../domain/notices/noticesApi.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const caughtUp = async () =>
  expect(await waitForProjections(system.sql, ['users', 'students', 'notices'], await system.store.committedPosition(), 30_000)).toBe(true);

interface List {
  notices: Notice[];
  unread: number;
}

const list = async (cookie: string): Promise<List> => {
  const res = await app.inject({ method: 'GET', url: '/api/notices', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as List;
};

const markRead = (cookie: string, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/notices/read',
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

interface Family {
  parentId: string;
  parentCookie: string;
  kidCookie: string;
  tutorId: string;
  tutorCookie: string;
  parties: SessionParties;
}

async function familyAndTutor(n: string): Promise<Family> {
  const { userId: parentId } = await registeredParent(system, `bell-parent-${n}`);
  const kid = await registeredStudent(system, `bell-kid-${n}`, { parentId, firstName: 'Kim', lastName: 'Kid' });
  const tutor = await approvedTutor(system, `bell-${n}`, { firstName: 'Maya', lastName: 'Okafor' });
  return {
    parentId,
    parentCookie: `tm_session=${(await system.signIns.create(parentId, 'parent')).token}`,
    kidCookie: kid.cookie,
    tutorId: tutor.tutorId,
    tutorCookie: tutor.cookie,
    parties: { tutorId: tutor.tutorId, studentId: kid.studentId, studentUserId: kid.userId },
  };
}

/** Books, moves and cancels one session, and books a second: four changes, each a notice to the parent and to the tutor. */
async function fourChanges(f: Family) {
  const first = hourFromNow(48);
  const moved = hourFromNow(72);
  const sessionId = await appendBookedSession(system.store, f.parties, first, { subjectName: 'Algebra' });
  await appendRescheduled(system.store, { ...f.parties, sessionId }, first, moved, 0);
  await appendCancelled(system.store, { ...f.parties, sessionId }, moved, 1);
  await appendBookedSession(system.store, f.parties, hourFromNow(96), { subjectName: 'Chemistry' });
  await caughtUp();
  return { sessionId, first, moved };
}

describe('notification settings', () => {
  let f: Family;
  beforeAll(async () => {
    f = await familyAndTutor('settings');
  });

  it('are all on by default, change kind by kind, and are the caller own', async () => {
    const get = (cookie: string) => app.inject({ method: 'GET', url: '/api/user/notification-settings', headers: { cookie } });
    const initial = await get(f.parentCookie);
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({
      email: { sessionBooked: true, sessionRescheduled: true, sessionCancelled: true, sessionCompleted: true, sessionReminders: true },
      alwaysSent: ['receipt', 'refund', 'payout', 'applicationDecision'],
    });
    const put = await app.inject({
      method: 'PUT',
      url: '/api/user/notification-settings',
      headers: { cookie: f.parentCookie },
      payload: { email: { sessionReminders: false, sessionBooked: false } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().email).toMatchObject({ sessionReminders: false, sessionBooked: false, sessionCancelled: true });
    const again = await app.inject({
      method: 'PUT',
      url: '/api/user/notification-settings',
      headers: { cookie: f.parentCookie },
      payload: { email: { sessionBooked: true } },
    });
    expect(again.json().email).toMatchObject({ sessionReminders: false, sessionBooked: true });
    expect((await get(f.parentCookie)).json().email).toMatchObject({ sessionReminders: false, sessionBooked: true });
    // The tutor's own settings are untouched by the parent's.
    expect((await get(f.tutorCookie)).json().email.sessionReminders).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/user/notification-settings' })).statusCode).toBe(401);
  });

  it('refuses unknown keys, the never-optional kinds, wrong types and huge bodies, changing nothing', async () => {
    const before = await system.store.readStream(`noticePreferences-${f.tutorId}`);
    for (const payload of [
      { email: { sessionBooked: false }, userId: f.parentId },
      { email: { receipt: false } },
      { email: { refund: false } },
      { email: { sessionBooked: 'no' } },
      { email: null },
      {},
      { email: { sessionBooked: false, [`x${'y'.repeat(100)}`]: true } },
    ]) {
      const res = await app.inject({ method: 'PUT', url: '/api/user/notification-settings', headers: { cookie: f.tutorCookie }, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toHaveProperty('message');
    }
    const huge = await app.inject({
      method: 'PUT',
      url: '/api/user/notification-settings',
      headers: { cookie: f.tutorCookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: { sessionBooked: false }, pad: 'x'.repeat(400_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(await system.store.readStream(`noticePreferences-${f.tutorId}`)).toHaveLength(before.length);
  });
});

describe('the bell', () => {
  let f: Family;
  let changes: Awaited<ReturnType<typeof fourChanges>>;
  beforeAll(async () => {
    f = await familyAndTutor('bell');
    changes = await fourChanges(f);
  });

  it("lists each change to the family's account holder and to the tutor, newest first, all unread", async () => {
    const parent = await list(f.parentCookie);
    expect(parent.unread).toBe(4);
    expect(parent.notices.map((n) => n.title)).toEqual([
      'Session booked: Chemistry',
      'Session cancelled: Algebra',
      'Session moved: Algebra',
      'Session booked: Algebra',
    ]);
    expect(parent.notices.every((n) => n.readAt === null && n.link === '/dashboard')).toBe(true);
    const moved = parent.notices.find((n) => n.kind === 'sessionRescheduled');
    expect(moved).toMatchObject({ at: changes.moved, previousAt: changes.first });
    expect(parent.notices.find((n) => n.kind === 'sessionCancelled')?.body).toMatch(/^Cancelled by the student\. /);
    const tutor = await list(f.tutorCookie);
    expect(tutor.unread).toBe(4);
    expect(tutor.notices.find((n) => n.kind === 'sessionBooked')?.body).toBe('Booked by the student: 60 minutes, online.');
    // The child's account is held by the parent: the parent is told, as by e-mail.
    expect((await list(f.kidCookie)).notices).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/api/notices' })).statusCode).toBe(401);
  });

  it('marks given notices read (unread stay first), and refuses someone else’s or an unknown id, changing nothing', async () => {
    const parent = await list(f.parentCookie);
    const oldest = parent.notices.at(-1) as Notice;
    const res = await markRead(f.parentCookie, { ids: [oldest.id] });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as List;
    expect(after.unread).toBe(3);
    expect(after.notices.at(-1)).toMatchObject({ id: oldest.id });
    expect(after.notices.at(-1)?.readAt).not.toBeNull();

    const tutorNotice = (await list(f.tutorCookie)).notices[0] as Notice;
    for (const ids of [[tutorNotice.id], [`${randomUUID()}:${f.parentId}`], [tutorNotice.id, (parent.notices[0] as Notice).id]]) {
      const refused = await markRead(f.parentCookie, { ids });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: 'Notice not found' });
    }
    // The tutor's notice is the tutor's: still unread, whatever the parent sent.
    expect((await list(f.tutorCookie)).unread).toBe(4);
    expect((await list(f.parentCookie)).unread).toBe(3);
  });

  it('refuses malformed read requests', async () => {
    for (const payload of [
      {},
      { all: false },
      { all: true, ids: ['x'] },
      { ids: [] },
      { ids: 'x' },
      { ids: ['x'], userId: f.tutorId },
      { ids: Array.from({ length: 101 }, (_, i) => `n${i}`) },
      { ids: ['x'.repeat(201)] },
    ]) {
      const res = await markRead(f.tutorCookie, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    const huge = await markRead(f.tutorCookie, { ids: ['x'], pad: 'y'.repeat(400_000) });
    expect(huge.statusCode).toBe(413);
    expect((await list(f.tutorCookie)).unread).toBe(4);
  });

  it('marks all read; a later notice is unread; a rebuild keeps what was read', async () => {
    const res = await markRead(f.tutorCookie, { all: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as List).unread).toBe(0);
    // Marking all again with nothing new records nothing.
    const reads = (await system.store.readStream(`noticeReads-${f.tutorId}`)).length;
    await markRead(f.tutorCookie, { all: true });
    expect(await system.store.readStream(`noticeReads-${f.tutorId}`)).toHaveLength(reads);

    await appendBookedSession(system.store, f.parties, hourFromNow(120), { subjectName: 'Physics' });
    await caughtUp();
    const tutor = await list(f.tutorCookie);
    expect(tutor.unread).toBe(1);
    expect(tutor.notices[0]).toMatchObject({ title: 'Session booked: Physics', readAt: null });

    const parentBefore = await list(f.parentCookie);
    await system.projections.rebuild('notices');
    await caughtUp();
    expect(await list(f.tutorCookie)).toEqual(tutor);
    expect(await list(f.parentCookie)).toEqual(parentBefore);
  });
});

describe('money notices in the bell, and erasure', () => {
  it('lists a receipt and a refund to the payer and a payout to each tutor paid; a deleted account keeps none', async () => {
    const f = await familyAndTutor('money');
    const purchaseId = randomUUID();
    const at = new Date().toISOString();
    await system.store.append(
      `purchase-${purchaseId}`,
      [
        {
          id: randomUUID(),
          type: 'PurchaseStarted',
          metadata: {},
          data: {
            purchaseId,
            studentId: f.parties.studentId,
            purchasedBy: f.parentId,
            packageId: randomUUID(),
            subjectId: 'math',
            sessionCount: 10,
            priceCents: 50_000,
            promo: null,
            finalCents: 45_000,
            paymentIntentId: 'pi_1',
            at,
          },
        },
        { id: randomUUID(), type: 'PurchaseCompleted', metadata: {}, data: { purchaseId, paymentIntentId: 'pi_1', at } },
        {
          id: randomUUID(),
          type: 'PurchaseRefunded',
          metadata: {},
          data: {
            purchaseId,
            attempt: 1,
            amountCents: 9_000,
            creditsRemoved: 2,
            reason: 'Moving away',
            refundId: 're_1',
            refundedBy: null,
            at,
          },
        },
      ],
      'no_stream',
    );
    const line = { kind: 'sessions', tutorId: f.tutorId, sessions: 3, rateCents: 2_500, amountCents: 7_500, adjusts: null };
    await system.store.append(
      `payoutPeriod-${randomUUID()}`,
      [
        {
          id: randomUUID(),
          type: 'PayoutPeriodApproved',
          metadata: {},
          data: { periodStart: '2026-11-01', periodEnd: '2026-11-15', lines: [line], totalCents: 7_500, approvedBy: null, at },
        },
        {
          id: randomUUID(),
          type: 'PayoutPeriodMarkedPaid',
          metadata: {},
          data: { periodStart: '2026-11-01', method: 'e_transfer', reference: 'REF-1', paidBy: null, at },
        },
      ],
      'no_stream',
    );
    await caughtUp();
    const parent = await list(f.parentCookie);
    // One append: both occurred at the same instant, in no particular order.
    expect(parent.notices.map((n) => [n.kind, n.title, n.body]).sort()).toEqual([
      ['receipt', 'Payment received: $450.00', '10 session credits added to your course. Your receipt was e-mailed to you.'],
      ['refund', 'Refund: $90.00', '2 session credits removed from your course. The details were e-mailed to you.'],
    ]);
    const tutor = await list(f.tutorCookie);
    expect(tutor.notices.map((n) => [n.kind, n.title])).toEqual([['payout', 'Payout sent: $75.00']]);

    await system.store.append(
      `user-${f.parentId}`,
      [{ id: randomUUID(), type: 'AccountDeleted', metadata: {}, data: { userId: f.parentId, at: new Date().toISOString() } }],
      'any',
    );
    await appendBookedSession(system.store, f.parties, hourFromNow(30), { subjectName: 'After erasure' });
    await caughtUp();
    const left = await system.sql`SELECT count(*)::int AS n FROM notices WHERE user_id = ${f.parentId}`;
    expect(left[0]?.n).toBe(0);
    const facts = await system.sql`SELECT count(*)::int AS n FROM notice_facts WHERE user_id = ${f.parentId}`;
    expect(facts[0]?.n).toBe(0);
    // The tutor still hears of the booking made after.
    expect((await list(f.tutorCookie)).notices[0]?.title).toBe('Session booked: After erasure');
  });
});
