import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/adapters/config/config.ts';
import { OutboxMailer } from '../src/adapters/mail/outboxMailer.ts';
import { signIn } from '../src/commands/accounts/signIn.ts';
import { receiveContactMessage } from '../src/commands/contact/receiveContactMessage.ts';
import { commandContext } from '../src/commands/kit/commandContext.ts';
import { createSystem } from '../src/system.ts';
import { createTestDatabase, type TestDatabase } from '../tests/support/database.ts';
import { embeddedPortCandidates } from './cli/connect.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let db: TestDatabase;
const senders = [
  { name: 'Ada Lovelace', email: 'ada.lovelace@example.org', subject: 'Quote for a roof', message: 'Please call me back.' },
  { name: 'Grace Hopper', email: 'grace.hopper@example.org', subject: 'Gutter repair', message: 'Is next week possible?' },
];
const streams: string[] = [];
const invite = {
  filename: 'topmark-session.ics',
  contentType: 'text/calendar; charset=utf-8; method=REQUEST',
  content: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n',
};

function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      ['ops/cli.ts', ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** --json: exactly one JSON document on stdout. */
function json<T = unknown>(run: Run): T {
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  db = await createTestDatabase('ops');
  const system = await createSystem(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), 'cli');
  try {
    for (const sender of senders) {
      const { contactId } = await receiveContactMessage(
        system.store,
        sender,
        commandContext({ actorRole: 'visitor', now: system.clock.now() }),
      );
      streams.push(`contact-${contactId}`);
    }
    await new OutboxMailer(system.sql).send({
      id: 'mail-ops-test',
      to: 'ada.lovelace@example.org',
      subject: 'We received your message',
      text: 'Thank you, we will get back to you.',
      attachments: [invite],
    });
    await new OutboxMailer(system.sql).send({ id: 'mail-ops-other', to: 'someone@example.org', subject: 'Other', text: 'Other mail' });
  } finally {
    await system.close();
  }
});

afterAll(async () => {
  await db?.drop();
});

describe('ops CLI', () => {
  it('lists the streams of a category', async () => {
    const run = await cli('streams:list', '--category', 'contact', '--json');
    expect(run.code).toBe(0);
    const list = json<{ streamId: string; category: string; revision: number; updatedAt: string }[]>(run);
    expect(list.map((s) => s.streamId).sort()).toEqual([...streams].sort());
    for (const s of list) {
      expect(s.category).toBe('contact');
      expect(s.revision).toBe(0);
      expect(Number.isNaN(Date.parse(s.updatedAt))).toBe(false);
    }
    const none = await cli('streams:list', '--category', 'nothing', '--json');
    expect(json(none)).toEqual([]);
  });

  it('shows a stream sealed: personal data stays encrypted', async () => {
    const run = await cli('streams:show', streams[0] as string, '--json');
    expect(run.code).toBe(0);
    const shown = json<{
      streamId: string;
      events: { revision: number; type: string; position: string; metadata: Record<string, unknown>; data: Record<string, unknown> }[];
    }>(run);
    expect(shown.streamId).toBe(streams[0]);
    expect(shown.events).toHaveLength(1);
    const [event] = shown.events;
    expect(event?.type).toBe('ContactMessageReceived');
    expect(event?.revision).toBe(0);
    expect(event?.position).toBeTruthy();
    expect(event?.metadata).toMatchObject({ actorRole: 'visitor', actorId: null });
    expect(event?.metadata.commandId).toBeTruthy();
    expect(event?.metadata.correlationId).toBe(event?.metadata.commandId);
    // Everything the sender typed is sealed, the subject included.
    expect(typeof event?.data.email).toBe('string');
    for (const secret of ['ada.lovelace@example.org', 'Ada Lovelace', 'Please call me back', 'Quote for a roof']) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }

    const readable = await cli('streams:show', streams[0] as string);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain('ContactMessageReceived');
    expect(readable.stdout).not.toContain('ada.lovelace@example.org');
  });

  it('fails with exit code 1 for an unknown stream', async () => {
    const run = await cli('streams:show', 'contact-00000000-0000-0000-0000-000000000000', '--json');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Unknown stream');
    expect(json<{ error: { message: string } }>(run).error.message).toContain('Unknown stream');
  });

  it('counts the events, also per category', async () => {
    const run = await cli('events:count', '--json');
    expect(run.code).toBe(0);
    expect(json(run)).toEqual({ total: 2, byCategory: [{ category: 'contact', streams: 2, events: 2 }] });
  });

  it('reports projectors and reactors', async () => {
    const run = await cli('projections:status', '--json');
    expect(run.code).toBe(0);
    const status = json<{ name: string; kind: string; lagEvents: number; status: string; rows: number | null }[]>(run);
    const names = status.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['audit_log', 'alerts', 'contact_messages', 'contact_mail_saga']));
    expect(status.find((s) => s.name === 'audit_log')).toMatchObject({ kind: 'projector', status: 'running', lagEvents: 2 });
    expect(status.find((s) => s.name === 'contact_mail_saga')).toMatchObject({ kind: 'reactor', rows: null });

    const readable = await cli('projections:status');
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(/audit_log\s+projector\s+running/);
  });

  it('rebuilds a projection', async () => {
    const run = await cli('projections:rebuild', 'audit_log', '--json');
    expect(run.code).toBe(0);
    const result = json<{
      rebuilt: { name: string; status: string; events: number; seconds: number; eventsPerSecond: number | null; rows: number }[];
    }>(run);
    expect(result.rebuilt).toHaveLength(1);
    // Rows of every table: 2 audit rows and the last field values of the 2 streams.
    expect(result.rebuilt[0]).toMatchObject({ name: 'audit_log', status: 'completed', events: 2, rows: 4 });
    expect(result.rebuilt[0]?.seconds).toBeGreaterThanOrEqual(0);
    // not a terminal: plain progress lines on stderr
    expect(run.stderr).toContain('audit_log: completed 2/2 events');
    const [row] = await db.sql<{ count: bigint }[]>`SELECT count(*) AS count FROM audit_logs`;
    expect(Number(row?.count)).toBe(2);

    const status = json<{ name: string; lagEvents: number; rebuild: { status: string; done: number } | null }[]>(
      await cli('projections:status', '--json'),
    );
    expect(status.find((s) => s.name === 'audit_log')).toMatchObject({ lagEvents: 0, rebuild: { status: 'completed', done: 2 } });
  });

  it('refuses unknown projections and reactors with exit code 1', async () => {
    const unknown = await cli('projections:rebuild', 'no_such_projection', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('audit_log');
    expect(json<{ error: { known: string[] } }>(unknown).error.known).toContain('audit_log');

    const reactor = await cli('projections:rebuild', 'contact_mail_saga');
    expect(reactor.code).toBe(1);
    expect(reactor.stderr).toContain('cannot be rebuilt');
    expect(reactor.stdout).toBe('');
  });

  it('lists the outbox, newest first, filtered by recipient, with the files of each mail', async () => {
    const all = await cli('mail:list', '--json');
    expect(all.code).toBe(0);
    expect(Array.isArray(json(all))).toBe(true);
    expect(json<unknown[]>(all)).toHaveLength(2);

    const run = await cli('mail:list', '--to', 'Ada.Lovelace@example.org', '--json');
    expect(run.code).toBe(0);
    expect(json(run)).toEqual([
      expect.objectContaining({
        to: 'ada.lovelace@example.org',
        subject: 'We received your message',
        text: 'Thank you, we will get back to you.',
        attachments: [invite],
      }),
    ]);
    expect(json<{ to: string; attachments: unknown[] }[]>(all).find((m) => m.to === 'someone@example.org')?.attachments).toEqual([]);
    const text = await cli('mail:list');
    expect(text.stdout).toContain('FILES');
    expect(text.stdout).toContain('topmark-session.ics');
  });

  it('creates an admin who can sign in, through the account commands', async () => {
    const run = await cli(
      'admin:create',
      '--username',
      'ops.admin',
      '--email',
      'ops.admin@example.org',
      '--first-name',
      'Olu',
      '--last-name',
      'Admin',
      '--password',
      'admin-pass-9',
      '--json',
    );
    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ username: 'ops.admin', role: 'admin' });
    const system = await createSystem(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), 'cli');
    try {
      const [user] = await system.sql`SELECT role, email_verified, terms_accepted_version FROM users WHERE username = 'ops.admin'`;
      expect(user).toEqual({ role: 'admin', email_verified: true, terms_accepted_version: '1.0' });
      const session = await signIn(
        system.accounts,
        'ops.admin',
        'admin-pass-9',
        commandContext({ ip: '127.0.0.1', now: system.clock.now() }),
      );
      expect(session.role).toBe('admin');
    } finally {
      await system.close();
    }
    const generated = await cli(
      'admin:create',
      '--username',
      'ops.finance',
      '--email',
      'ops.finance@example.org',
      '--first-name',
      'Fay',
      '--last-name',
      'Numbers',
      '--role',
      'finance',
      '--json',
    );
    expect(json<{ password: string }>(generated).password.length).toBeGreaterThanOrEqual(12);
    const named = (...args: string[]) => cli('admin:create', '--first-name', 'Ann', '--last-name', 'Other', ...args);
    const taken = await named('--username', 'ops.admin', '--email', 'other@example.org', '--json');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('Username already exists');
    expect((await named('--username', 'x', '--email', 'x@example.org', '--role', 'tutor')).code).toBe(2);
    // A staff account is a named person: no name, no account.
    expect((await cli('admin:create', '--username', 'y', '--email', 'y@example.org', '--last-name', 'Y')).code).toBe(2);
  });

  it('moves uploaded files kept on disk into the database (files:import)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'topmark-ops-files-'));
    try {
      mkdirSync(path.join(dir, 'profile-pictures', 'tutor-9'), { recursive: true });
      writeFileSync(path.join(dir, 'profile-pictures', 'tutor-9', 'a.png'), 'picture');
      writeFileSync(path.join(dir, 'Not-A-Key.png'), 'left');
      const run = await cli('files:import', '--dir', dir, '--json');
      expect(run.code).toBe(1);
      expect(json(run)).toEqual({ dir, imported: 1, alreadyStored: 0, leftOnDisk: ['Not-A-Key.png'] });
      const [row] = await db.sql`SELECT convert_from(bytes, 'UTF8') AS text FROM stored_files WHERE key = 'profile-pictures/tutor-9/a.png'`;
      expect(row).toEqual({ text: 'picture' });
      const again = await cli('files:import', '--dir', dir);
      expect(again.stdout).toContain('0 file(s) stored in the database');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on usage errors', async () => {
    const unknown = await cli('no:such-command');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command');
    expect(unknown.stdout).toBe('');

    expect((await cli('streams:list', '--limit', 'many')).code).toBe(2);
    expect((await cli('projections:rebuild')).code).toBe(2);
  });
});

describe('embedded server discovery', () => {
  it('reads the port from postmaster.pid first, then pg.port', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'topmark-ops-'));
    try {
      expect(embeddedPortCandidates(dir)).toEqual([]);
      writeFileSync(path.join(dir, 'pg.port'), '54329');
      expect(embeddedPortCandidates(dir)).toEqual([54329]);
      mkdirSync(path.join(dir, 'pg'));
      writeFileSync(path.join(dir, 'pg', 'postmaster.pid'), `4242\n${dir}/pg\n1700000000\n61234\n\n127.0.0.1\n`);
      expect(embeddedPortCandidates(dir)).toEqual([61234, 54329]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
