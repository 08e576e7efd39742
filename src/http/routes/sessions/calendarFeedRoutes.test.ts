import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRfc5545Lines } from '../../../../tests/support/iCalendar.ts';
import {
  appendBookedSession,
  appendCancelled,
  appendRescheduled,
  hourFromNow,
  registeredParent,
  registeredStudent,
} from '../../../../tests/support/sessions.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { approvedTutor } from '../../../../tests/support/tutors.ts';
import { loadConfig } from '../../../adapters/config/config.ts';
import { sessionStreamId } from '../../../domain/sessions/session.ts';
import { noticeFactsAt, type SessionStreamEvent, sessionUid } from '../../../domain/sessions/sessionNotices.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { createSystem, type System } from '../../../system.ts';
import { buildApp } from '../../app.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const caughtUp = async () =>
  expect(
    await waitForProjections(
      system.sql,
      ['users', 'students', 'sessions', 'calendar_feeds'],
      await system.store.committedPosition(),
      30_000,
    ),
  ).toBe(true);

async function newLink(cookie: string, on: FastifyInstance = app): Promise<string> {
  const res = await on.inject({ method: 'POST', url: '/api/calendar-feed', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.headers['cache-control']).toBe('no-store');
  const { url } = res.json() as { url: string };
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return new URL(url).pathname;
}

interface FeedEvent {
  uid: string;
  sequence: number;
  status: string | null;
  start: string;
  summary: string;
  description: string;
}

function parseFeed(text: string): FeedEvent[] {
  expectRfc5545Lines(text);
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.getFirstPropertyValue('method')).toBeNull();
  return calendar.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      sequence: e.sequence,
      status: (v.getFirstPropertyValue('status') as string | null) ?? null,
      start: e.startDate.toJSDate().toISOString(),
      summary: e.summary,
      description: e.description,
    };
  });
}

const readFeed = async (path: string, on: FastifyInstance = app) => {
  const res = await on.inject({ method: 'GET', url: path });
  return { status: res.statusCode, res, events: res.statusCode === 200 ? parseFeed(res.body) : [] };
};

describe('the personal calendar feed', () => {
  let family: { parentId: string; parentCookie: string; studentUserId: string; studentId: string; studentCookie: string };
  let tutor: { tutorId: string; cookie: string };
  let moved: string;
  let cancelled: string;
  let movedStart: string;

  beforeAll(async () => {
    const { userId: parentId } = await registeredParent(system, 'feed-parent');
    const kid = await registeredStudent(system, 'feed-kid', { parentId, firstName: 'Kim', lastName: 'Kid' });
    const t = await approvedTutor(system, 'feed', { firstName: 'Maya', lastName: 'Okafor' });
    family = {
      parentId,
      parentCookie: `tm_session=${(await system.signIns.create(parentId, 'parent')).token}`,
      studentUserId: kid.userId,
      studentId: kid.studentId,
      studentCookie: kid.cookie,
    };
    tutor = { tutorId: t.tutorId, cookie: t.cookie };
    const parties = { tutorId: t.tutorId, studentId: kid.studentId, studentUserId: kid.userId };
    const first = hourFromNow(48);
    movedStart = hourFromNow(72);
    moved = await appendBookedSession(system.store, parties, first, { subjectName: 'Algebra' });
    await appendRescheduled(system.store, { ...parties, sessionId: moved }, first, movedStart, 0);
    const third = hourFromNow(96);
    cancelled = await appendBookedSession(system.store, parties, third, { subjectName: 'Chemistry' });
    await appendCancelled(system.store, { ...parties, sessionId: cancelled }, third, 0);
    // Outside the window: 200 days ahead.
    await appendBookedSession(system.store, parties, hourFromNow(200 * 24), { subjectName: 'Far away' });
    await caughtUp();
  });

  it('answers only with the token: no link yet, a cookie alone, a wrong or malformed token are all 404', async () => {
    const status = await app.inject({ method: 'GET', url: '/api/calendar-feed', headers: { cookie: family.parentCookie } });
    expect(status.json()).toEqual({ active: false, issuedAt: null });
    expect((await app.inject({ method: 'GET', url: '/api/calendar-feed' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/calendar-feed' })).statusCode).toBe(401);
    const path = await newLink(family.parentCookie);
    const token = path.slice('/calendar/'.length, -'.ics'.length);
    const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const url of [
      `/calendar/${other}.ics`,
      `/calendar/${token}`,
      `/calendar/${token}.ics.ics`,
      `/calendar/${token.slice(1)}.ics`,
      `/calendar/${token}%00.ics`,
      `/calendar/%00${token.slice(1)}.ics`,
      '/calendar/.ics',
    ]) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie: family.parentCookie } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('BEGIN:VCALENDAR');
    }
    // A path too long for any route (414) or not a URL at all (400) is refused by the router itself, before any look-up.
    for (const [url, refused] of [
      [`/calendar/${'A'.repeat(5000)}.ics`, 414],
      ['/calendar/%E0%A4%A.ics', 400],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect([404, refused]).toContain(res.statusCode);
      expect(res.body).not.toContain('BEGIN:VCALENDAR');
    }
    const ok = await app.inject({ method: 'GET', url: path });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(ok.headers['cache-control']).toBe('private, max-age=300');
    expect(ok.headers['set-cookie']).toBeUndefined();
    // Only the token's SHA-256 is kept, in the read model and in the log.
    const stored = JSON.stringify(await system.sql`SELECT * FROM calendar_feeds`);
    const logged = JSON.stringify(await system.sql`SELECT data FROM es_events WHERE type = 'CalendarFeedTokenIssued'`);
    expect(stored).not.toContain(token);
    expect(logged).not.toContain(token);
  });

  it("lists a parent's child's sessions with the notices' UID and SEQUENCE, cancelled ones as CANCELLED, in the window", async () => {
    const path = await newLink(family.parentCookie);
    const { status, events } = await readFeed(path);
    expect(status).toBe(200);
    expect(events.map((e) => e.summary).sort()).toEqual(['Topmark: Algebra with Maya Okafor', 'Topmark: Chemistry with Maya Okafor']);
    for (const [sessionId, last] of [
      [moved, 1],
      [cancelled, 1],
    ] as const) {
      const stream = (await system.store.readStream(sessionStreamId(sessionId))) as unknown as SessionStreamEvent[];
      const facts = noticeFactsAt(stream, (stream[last] as SessionStreamEvent).id);
      const event = events.find((e) => e.uid === sessionUid(sessionId));
      expect(event?.sequence).toBe(facts?.sequence);
      expect(event?.sequence).toBe(1);
    }
    expect(events.find((e) => e.uid === sessionUid(moved))).toMatchObject({ status: 'CONFIRMED', start: movedStart });
    expect(events.find((e) => e.uid === sessionUid(cancelled))?.status).toBe('CANCELLED');
  });

  it("lists the tutor's own sessions under the student's name, and the student's own", async () => {
    const tutorFeed = await readFeed(await newLink(tutor.cookie));
    expect(tutorFeed.events.map((e) => e.summary).sort()).toEqual(['Topmark: Algebra with Kim Kid', 'Topmark: Chemistry with Kim Kid']);
    const studentFeed = await readFeed(await newLink(family.studentCookie));
    expect(studentFeed.events.map((e) => e.uid).sort()).toEqual([sessionUid(moved), sessionUid(cancelled)].sort());
  });

  describe('reset, here and on another API instance on the same database', () => {
    let replica: { system: System; app: FastifyInstance };
    beforeAll(async () => {
      const other = await createSystem(loadConfig({ DATABASE_URL: system.databaseUrl, LOG_LEVEL: 'silent', NODE_ENV: 'test' }), 'api');
      replica = { system: other, app: await buildApp(other, { logger: false }) };
    });
    afterAll(async () => {
      await replica.app.close();
      await replica.system.close();
    });

    it('stops the old link at once everywhere; the new one works everywhere', async () => {
      const old = await newLink(tutor.cookie);
      expect((await readFeed(old, replica.app)).status).toBe(200);
      const renewed = await newLink(tutor.cookie, replica.app);
      expect(renewed).not.toBe(old);
      for (const on of [app, replica.app]) {
        expect((await readFeed(old, on)).status).toBe(404);
        expect((await readFeed(renewed, on)).status).toBe(200);
      }
      const status = await app.inject({ method: 'GET', url: '/api/calendar-feed', headers: { cookie: tutor.cookie } });
      expect(status.json()).toMatchObject({ active: true });
    });
  });

  it("an erased account's feed is gone", async () => {
    const path = await newLink(family.studentCookie);
    expect((await readFeed(path)).status).toBe(200);
    const res = await app.inject({ method: 'DELETE', url: '/api/user/delete', headers: { cookie: family.studentCookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await readFeed(path)).status).toBe(404);
    await caughtUp();
    expect(await system.sql`SELECT 1 FROM calendar_feeds WHERE user_id = ${family.studentUserId}`).toHaveLength(0);
  });
});
