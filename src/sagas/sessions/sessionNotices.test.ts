import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParsedInvite, parseInvite } from '../../../tests/support/iCalendar.ts';
import {
  appendBookedSession,
  appendCancelled,
  appendRescheduled,
  hourFromNow,
  registeredParent,
  registeredStudent,
  type SessionParties,
} from '../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { approvedTutor } from '../../../tests/support/tutors.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { KeptMail, Mailer } from '../../adapters/mail/mailer.ts';
import { changeTimezone } from '../../commands/accounts/accountSettings.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { sessionTimeIn, sessionUid } from '../../domain/sessions/sessionNotices.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { reactorProjector } from '../kit/reactor.ts';
import {
  NOTICE_WINDOW_MS,
  noticeJobId,
  SESSION_NOTICE_QUEUE,
  type SessionNoticeDeps,
  sendSessionNotice,
  sessionNoticeReactor,
  workSessionNotices,
} from './sessionNotices.ts';

const HOUR = 3_600_000;
const PARENT_ZONE = 'America/Halifax';
const TUTOR_ZONE = 'America/Vancouver';

interface Family {
  parentId: string;
  parentEmail: string;
  kidEmail: string;
  parties: SessionParties;
  tutorEmail: string;
}

/** A parent holding a child's account (zone Halifax) and a tutor (zone Vancouver), neither the zone the session events carry. */
async function familyAndTutor(system: TestSystem, n: string): Promise<Family> {
  const parentEmail = `notice-parent-${n}@example.com`;
  const { userId: parentId } = await registeredParent(system, `notice-parent-${n}`, { lastName: `Parent${n}`, email: parentEmail });
  const { studentId, userId: kidUserId } = await registeredStudent(system, `notice-kid-${n}`, {
    parentId,
    firstName: 'Kim',
    lastName: 'Kid',
  });
  const tutor = await approvedTutor(system, `notice-${n}`, { firstName: 'Maya', lastName: `Okafor${n.toUpperCase()}` });
  await changeTimezone(system.accounts, parentId, PARENT_ZONE, commandContext({ now: system.clock.now() }));
  await changeTimezone(system.accounts, tutor.tutorId, TUTOR_ZONE, commandContext({ now: system.clock.now() }));
  expect(await waitForProjections(system.sql, ['users', 'students'], await system.store.committedPosition(), 30_000)).toBe(true);
  return {
    parentId,
    parentEmail,
    kidEmail: `student-notice-kid-${n}@example.com`,
    parties: { tutorId: tutor.tutorId, studentId, studentUserId: kidUserId },
    tutorEmail: tutor.email,
  };
}

const depsOf = (system: TestSystem, mailer: Mailer = system.mailer): SessionNoticeDeps => ({
  sql: system.sql,
  store: system.store,
  mailer,
  mailFrom: system.config.MAIL_FROM,
  publicUrl: system.config.PUBLIC_URL,
});

/** Every session notice in the outbox (reminders and account mail aside). */
async function notices(system: TestSystem, to?: string): Promise<KeptMail[]> {
  const mails = (await system.mailer.mailbox?.list({ limit: 5000, ...(to ? { to } : {}) })) ?? [];
  return mails.filter((m) => m.subject.startsWith('Session '));
}

const inviteOf = (mail: KeptMail): ParsedInvite => {
  expect(mail.attachments).toHaveLength(1);
  return parseInvite(mail.attachments[0]?.content ?? '');
};

/** How many notice jobs are not finished yet. */
const pendingJobs = async (system: TestSystem) =>
  Number(
    (
      await system.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${SESSION_NOTICE_QUEUE} AND state IN ('created', 'retry', 'active')`
    )[0]?.n,
  );

/** Exactly one booked notice per session per recipient, for these sessions and these addresses. */
function expectOnePerBookingAndRecipient(mails: KeptMail[], bookings: { sessionId: string; recipients: string[] }[]) {
  const booked = mails.filter((m) => m.subject.startsWith('Session booked'));
  const seen = booked.map((m) => `${inviteOf(m).uid} → ${m.to}`).sort();
  const expected = bookings.flatMap((b) => b.recipients.map((to) => `${sessionUid(b.sessionId)} → ${to}`)).sort();
  expect(seen).toEqual(expected);
}

async function appendCompleted(system: TestSystem, parties: SessionParties & { sessionId: string }, notes: string, revision: number) {
  await system.store.append(
    `session-${parties.sessionId}`,
    [
      {
        id: randomUUID(),
        type: 'SessionCompleted',
        metadata: {},
        data: {
          sessionId: parties.sessionId,
          tutorId: parties.tutorId,
          studentId: parties.studentId,
          studentUserId: parties.studentUserId,
          courseId: randomUUID(),
          completedBy: parties.tutorId,
          notes,
          at: new Date().toISOString(),
        },
      },
    ],
    { exact: revision },
  );
}

describe('the notices reactor', () => {
  const event = (recordedAt: Date) =>
    ({
      id: randomUUID(),
      type: 'SessionBooked',
      streamId: 'session-s1',
      revision: 0,
      position: '0',
      recordedAt,
      metadata: {},
      // The reactor parses what it is given: a booking as the log holds one.
      data: {
        sessionId: 's1',
        tutorId: 't1',
        studentId: 'st1',
        studentUserId: 'u1',
        courseId: 'c1',
        subjectId: 'sub1',
        subjectName: 'Math',
        start: '2030-01-07T15:00:00.000Z',
        end: '2030-01-07T16:00:00.000Z',
        durationMinutes: 60,
        notes: '',
        bookedBy: 'u1',
        bookedByRole: 'parent',
        tutorTimeZone: 'America/Toronto',
        studentTimeZone: 'America/Toronto',
        at: new Date().toISOString(),
      },
    }) satisfies RecordedEvent;

  it('makes one job per change, its id from the event; history older than the window is not news', () => {
    const fresh = event(new Date());
    const jobs = sessionNoticeReactor.jobsFor(fresh);
    expect(jobs).toEqual([{ queue: SESSION_NOTICE_QUEUE, id: noticeJobId(fresh.id), data: { sessionId: 's1', eventId: fresh.id } }]);
    expect(sessionNoticeReactor.jobsFor(fresh)).toEqual(jobs);
    expect(sessionNoticeReactor.jobsFor(event(new Date(Date.now() - NOTICE_WINDOW_MS - HOUR)))).toEqual([]);
  });
});

describe('session notices through the saga', () => {
  let system: TestSystem;
  let family: Family;

  beforeAll(async () => {
    system = await createTestSystem('all');
    family = await familyAndTutor(system, 'a');
  }, 60_000);
  afterAll(() => system.dispose());

  it('tells the parent (not the child) and the tutor of every change once, in their zones, with one UID and a growing SEQUENCE', async () => {
    const start = hourFromNow(72);
    const second = new Date(Date.parse(start) + 24 * HOUR).toISOString();
    const third = new Date(Date.parse(start) + 49 * HOUR).toISOString();
    const sessionId = await appendBookedSession(system.store, family.parties, start, { tutorTimeZone: 'America/Toronto' });
    const session = { ...family.parties, sessionId };
    await appendRescheduled(system.store, session, start, second, 0);
    await appendRescheduled(system.store, session, second, third, 1);
    await appendCancelled(system.store, session, third, 2);

    await expect.poll(async () => (await notices(system, family.parentEmail)).length, { timeout: 20_000 }).toBe(4);
    await expect.poll(async () => (await notices(system, family.tutorEmail)).length, { timeout: 20_000 }).toBe(4);
    expect(await notices(system, family.kidEmail)).toEqual([]);

    const byKind = (mails: KeptMail[]) => {
      const find = (prefix: string) => mails.filter((m) => m.subject.startsWith(prefix));
      return { booked: find('Session booked'), moved: find('Session moved'), cancelled: find('Session cancelled') };
    };
    const parent = byKind(await notices(system, family.parentEmail));
    const tutor = byKind(await notices(system, family.tutorEmail));
    expect([parent.booked.length, parent.moved.length, parent.cancelled.length]).toEqual([1, 2, 1]);
    expect([tutor.booked.length, tutor.moved.length, tutor.cancelled.length]).toEqual([1, 2, 1]);

    // Words and zones: each reader's own, not the zone the events carry.
    const parentBooked = parent.booked[0] as KeptMail;
    expect(parentBooked.text).toContain('Hi Pat,');
    expect(parentBooked.text).toContain(`Kim Kid booked a Math (Grade 10 & Under) session with Maya OkaforA.`);
    expect(parentBooked.text).toContain(`When: ${sessionTimeIn(start, PARENT_ZONE)}`);
    const tutorBooked = tutor.booked[0] as KeptMail;
    expect(tutorBooked.text).toContain('Kim Kid booked a Math (Grade 10 & Under) session with you.');
    expect(tutorBooked.text).toContain(`When: ${sessionTimeIn(start, TUTOR_ZONE)}`);
    const lastMove = parent.moved.find((m) => m.text.includes(`Now: ${sessionTimeIn(third, PARENT_ZONE)}`));
    expect(lastMove?.text).toContain(`Was: ${sessionTimeIn(second, PARENT_ZONE)}`);
    expect(tutor.moved.some((m) => m.text.includes(`Now: ${sessionTimeIn(third, TUTOR_ZONE)}`))).toBe(true);
    expect(parent.cancelled[0]?.text).toContain('Kim Kid cancelled the Math (Grade 10 & Under) session with Maya OkaforA.');
    expect(parent.cancelled[0]?.text).toContain('so the session credit is back in your course');
    expect(tutor.cancelled[0]?.text).toContain('so the family gets the session credit back');

    // The calendar files: one UID, SEQUENCE 0, 1, 2, then a CANCEL above the last move.
    for (const side of [parent, tutor]) {
      const booked = inviteOf(side.booked[0] as KeptMail);
      const moves = side.moved.map(inviteOf).sort((a, b) => a.sequence - b.sequence);
      const cancel = inviteOf(side.cancelled[0] as KeptMail);
      expect(new Set([booked, ...moves, cancel].map((i) => i.uid))).toEqual(new Set([sessionUid(sessionId)]));
      expect([booked, ...moves].map((i) => [i.method, i.sequence, i.start])).toEqual([
        ['REQUEST', 0, start],
        ['REQUEST', 1, second],
        ['REQUEST', 2, third],
      ]);
      expect(cancel).toMatchObject({ method: 'CANCEL', status: 'CANCELLED', start: third });
      expect(cancel.sequence).toBeGreaterThanOrEqual(2);
    }
    expect(parent.booked[0]?.attachments[0]?.contentType).toBe('text/calendar; charset=utf-8; method=REQUEST');
    expect(parent.cancelled[0]?.attachments[0]?.contentType).toBe('text/calendar; charset=utf-8; method=CANCEL');
    expect(inviteOf(parentBooked).attendees).toEqual([`mailto:${family.parentEmail}`]);
    expect(inviteOf(tutorBooked).attendees).toEqual([`mailto:${family.tutorEmail}`]);
  }, 60_000);

  it("a completion: the tutor's report to the family only", async () => {
    const sessionId = await appendBookedSession(system.store, family.parties, hourFromNow(30));
    await appendCompleted(system, { ...family.parties, sessionId }, 'Worked on fractions.\nNext time: decimals.', 0);
    const reports = async () => (await notices(system, family.parentEmail)).filter((m) => m.subject.startsWith('Session report'));
    await expect.poll(async () => (await reports()).length, { timeout: 20_000 }).toBe(1);
    expect((await reports())[0]?.text).toContain("Your tutor's report:\nWorked on fractions.\nNext time: decimals.");
    const completedForTutor = async () =>
      (await notices(system, family.tutorEmail)).filter((m) => m.subject.startsWith('Session completed'));
    await expect.poll(async () => (await completedForTutor()).length, { timeout: 20_000 }).toBe(1);
    const forTutor = (await completedForTutor())[0] as KeptMail;
    expect(forTutor.text).not.toContain('fractions');
    expect(forTutor.attachments[0]?.content).not.toContain('fractions');
    expect(inviteOf(forTutor)).toMatchObject({ method: 'REQUEST', sequence: 0, uid: sessionUid(sessionId) });
  }, 30_000);

  it('mails once when a job runs again or the reactor replays its batch', async () => {
    const start = hourFromNow(100);
    const sessionId = await appendBookedSession(system.store, family.parties, start);
    await appendRescheduled(system.store, { ...family.parties, sessionId }, start, hourFromNow(101), 0);
    const ofSession = async () => (await notices(system)).filter((m) => m.attachments.some((a) => a.content.includes(sessionId)));
    await expect.poll(async () => (await ofSession()).length, { timeout: 20_000 }).toBe(4);
    await expect.poll(() => pendingJobs(system), { timeout: 20_000 }).toBe(0);

    const events = await system.store.readStream(`session-${sessionId}`);
    // the reactor's batch again (a crash before its checkpoint): the same job ids, no new job
    await reactorProjector(sessionNoticeReactor, system.jobs).apply(system.sql as never, events, 'live');
    const jobs = await system.sql<{ id: string; state: string }[]>`
      SELECT id, state::text AS state FROM pgboss.job WHERE name = ${SESSION_NOTICE_QUEUE} AND data->>'sessionId' = ${sessionId}`;
    expect(jobs.map((j) => j.state).sort()).toEqual(['completed', 'completed']);
    expect(jobs.map((j) => j.id).sort()).toEqual(events.map((e) => noticeJobId(e.id)).sort());
    // a job run again, twice at once (a retry beside a worker that was thought dead)
    for (const e of events) {
      const job = { sessionId, eventId: e.id };
      expect(await Promise.all([sendSessionNotice(depsOf(system), job), sendSessionNotice(depsOf(system), job)])).toEqual(['sent', 'sent']);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(await ofSession()).toHaveLength(4);
    expect(await sendSessionNotice(depsOf(system), { sessionId, eventId: randomUUID() })).toBe('unknown');
  }, 40_000);

  it('50 bookings in a burst: exactly one notice per booking per recipient', async () => {
    const other = await familyAndTutor(system, 'b');
    const families = [family, other];
    const before = new Set((await notices(system)).map((m) => m.id));
    const bookings = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const f = families[i % 2] as Family;
        const sessionId = await appendBookedSession(system.store, f.parties, hourFromNow(200 + i));
        return { sessionId, recipients: [f.parentEmail, f.tutorEmail] };
      }),
    );
    const fresh = async () => (await notices(system)).filter((m) => !before.has(m.id));
    await expect.poll(async () => (await fresh()).length, { timeout: 30_000, interval: 250 }).toBe(100);
    await expect.poll(() => pendingJobs(system), { timeout: 20_000 }).toBe(0);
    expectOnePerBookingAndRecipient(await fresh(), bookings);
  }, 60_000);
});

describe('session notices when a worker dies mid-burst', () => {
  let system: TestSystem;
  let family: Family;

  beforeAll(async () => {
    // Jobs are enqueued here (the reactors run) but worked only by the workers this test starts.
    system = await createTestSystem('projector', {}, { retry: { retryLimit: 5, retryDelaySeconds: 1 } });
    family = await familyAndTutor(system, 'k');
  }, 60_000);
  afterAll(() => system.dispose());

  it('another worker finishes what a killed worker had claimed: exactly one notice per booking per recipient', async () => {
    // Worker A sends 15 mails, then hangs inside its next send (mid-job: a family's mail out, the tutor's not) and is killed.
    const a = new JobQueue(system.databaseUrl);
    await a.start([{ name: SESSION_NOTICE_QUEUE }]);
    let sentByA = 0;
    const jobsMailedByA = new Map<string, number>();
    const hanging: Mailer = {
      kind: 'outbox',
      send: async (mail) => {
        if (sentByA >= 15) return new Promise<void>(() => {});
        sentByA++;
        const uid = mail.attachments?.[0]?.content.match(/UID:(\S+)/)?.[1] ?? '';
        jobsMailedByA.set(uid, (jobsMailedByA.get(uid) ?? 0) + 1);
        await system.mailer.send(mail);
      },
    };
    await workSessionNotices(a, depsOf(system, hanging));

    const bookings = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const sessionId = await appendBookedSession(system.store, family.parties, hourFromNow(300 + i));
        return { sessionId, recipients: [family.parentEmail, family.tutorEmail] };
      }),
    );
    await expect.poll(() => sentByA, { timeout: 20_000 }).toBe(15);
    // 15 mails of jobs that send two each: at least one job died with its first mail out and its second not.
    expect([...jobsMailedByA.values()]).toContain(1);
    const active = async () =>
      Number(
        (
          await system.sql<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${SESSION_NOTICE_QUEUE} AND state = 'active'`
        )[0]?.n,
      );
    expect(await active()).toBeGreaterThan(0);
    // Killed: from now on the process reaches no database (no heartbeat, no hand-back of its jobs).
    const db = a.boss.getDb() as { executeSql: (text: string, values?: unknown[]) => Promise<unknown> };
    db.executeSql = () => Promise.reject(new Error('the worker process was killed'));
    await a.boss.stop({ graceful: false, timeout: 1000 }).catch(() => {});
    expect(await active()).toBeGreaterThan(0);

    // Worker B, in another process: the dead worker's jobs come back once their heartbeats lapse (10 s).
    await workSessionNotices(system.jobs, depsOf(system));
    await expect.poll(async () => (await notices(system)).length, { timeout: 45_000, interval: 500 }).toBe(100);
    await expect.poll(() => pendingJobs(system), { timeout: 20_000 }).toBe(0);
    expectOnePerBookingAndRecipient(await notices(system), bookings);
    const retried = await system.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${SESSION_NOTICE_QUEUE} AND retry_count > 0`;
    expect(retried[0]?.n).toBeGreaterThan(0);
  }, 90_000);
});
