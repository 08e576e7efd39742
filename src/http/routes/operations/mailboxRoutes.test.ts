import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import type { Mailer } from '../../../adapters/mail/mailer.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { devMailboxResponseSchema } from '../../../domain/accounts/accountApi.ts';
import { buildApp } from '../../app.ts';

const systems: TestSystem[] = [];
afterAll(async () => {
  for (const s of systems) await s.dispose();
});

async function consoleOf(options: { mailer?: Mailer } = {}) {
  const system = await createTestSystem('api', {}, options);
  systems.push(system);
  const app = await buildApp(system, { logger: false });
  const cookie = async (role: 'admin' | 'finance') => {
    const { userId } = await createStaffAccount(system.accounts, system.clock, {
      username: `mailbox-${role}`,
      email: `mailbox-${role}@example.com`,
      firstName: 'Mail',
      lastName: 'Box',
      password: 'Mailbox-staff-2026!',
      role,
    });
    return `tm_session=${(await system.signIns.create(userId, role)).token}`;
  };
  return { system, app, cookie };
}

describe('the dev mailbox in the console', () => {
  it('shows admins the mail kept in the outbox, newest first, with its files; finance is refused', async () => {
    const { system, app, cookie } = await consoleOf();
    const admin = await cookie('admin');
    await system.mailer.send({ id: randomUUID(), to: 'first@example.com', subject: 'First', text: 'one' });
    await new Promise((r) => setTimeout(r, 5));
    await system.mailer.send({ id: randomUUID(), to: 'second@example.com', subject: 'Second', text: 'two' });
    const res = await app.inject({ method: 'GET', url: '/api/admin/mailbox', headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const subjects = devMailboxResponseSchema
      .parse(res.json())
      .mails.map((m) => m.subject)
      .filter((s) => s === 'First' || s === 'Second');
    expect(subjects).toEqual(['Second', 'First']);
    // with the files sent with each: name, type and text (a session notice's calendar file)
    const ics = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n';
    const file = { filename: 'topmark-session.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: ics };
    await system.mailer.send({ id: randomUUID(), to: 'pat@example.com', subject: 'Session booked', text: 'Hi Pat', attachments: [file] });
    const withFile = await app.inject({ method: 'GET', url: '/api/admin/mailbox', headers: { cookie: admin } });
    const mails = devMailboxResponseSchema.parse(withFile.json()).mails;
    expect(mails.find((m) => m.subject === 'Session booked')?.attachments).toEqual([file]);
    expect(mails.find((m) => m.subject === 'First')?.attachments).toEqual([]);
    const finance = await cookie('finance');
    expect((await app.inject({ method: 'GET', url: '/api/admin/mailbox', headers: { cookie: finance } })).statusCode).toBe(403);
    await app.close();
  });

  it('is absent (404) when a mail provider sends the mail', async () => {
    const sent: string[] = [];
    const smtp: Mailer = { kind: 'smtp', send: async (mail) => void sent.push(mail.id) };
    const { app, cookie } = await consoleOf({ mailer: smtp });
    const res = await app.inject({ method: 'GET', url: '/api/admin/mailbox', headers: { cookie: await cookie('admin') } });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});
