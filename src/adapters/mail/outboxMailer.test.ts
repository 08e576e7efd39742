import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../db/migrate.ts';
import { ERASED, PersonalDataVault } from '../personalData/personalDataVault.ts';
import type { OutgoingMail } from './mailer.ts';
import { listOutbox, OutboxMailer } from './outboxMailer.ts';

describe('outbox mailer', () => {
  let db: TestDatabase;
  let vault: PersonalDataVault;
  const sent: OutgoingMail[] = [];
  let mailer: OutboxMailer;
  beforeAll(async () => {
    db = await createTestDatabase('outbox');
    await migrate(db.sql, { eventStore: true });
    vault = new PersonalDataVault(db.sql);
    mailer = new OutboxMailer(db.sql, (mail) => sent.push(mail), vault);
  });
  afterAll(async () => db.drop());

  const raw = async () => JSON.stringify(await db.sql`SELECT * FROM mail_outbox`);

  it("keeps a data subject's mail sealed with their key, lists it opened, and as [erased] once the key is gone", async () => {
    await vault.keysFor(['user-u1', 'contact-c1']);
    const mail = {
      id: 'mail-1',
      to: 'Petronella.Quist@example.com',
      subject: 'Your code for Petronella',
      text: 'Hi Petronella, your code is 402913.',
      dataSubject: 'user-u1',
    };
    await mailer.send(mail);
    await mailer.send({ ...mail, text: 'a retry of the same id' });
    await mailer.send({
      id: 'mail-2',
      to: 'support@topmark.ca',
      subject: 'New contact: Quist',
      text: 'From Petronella',
      dataSubject: 'contact-c1',
    });
    await mailer.send({ id: 'mail-3', to: 'someone@example.org', subject: 'Plain', text: 'No personal data' });
    expect(sent.map((m) => m.id)).toEqual(['mail-1', 'mail-2', 'mail-3']);

    const stored = await raw();
    for (const secret of ['Petronella', 'Quist', '402913']) expect(stored).not.toContain(secret);
    // Mail without a data subject is kept as it is.
    expect(stored).toContain('someone@example.org');

    const opened = await listOutbox(db.sql);
    expect(opened.map((m) => m.id).sort()).toEqual(['mail-1', 'mail-2', 'mail-3']);
    expect(opened.find((m) => m.id === 'mail-1')).toMatchObject({ to: mail.to, subject: mail.subject, text: mail.text });
    // Looking up by recipient opens the sealed ones to compare, ignoring case.
    expect((await listOutbox(db.sql, { to: 'petronella.quist@EXAMPLE.com' })).map((m) => m.id)).toEqual(['mail-1']);
    expect((await listOutbox(db.sql, { to: 'support@topmark.ca' })).map((m) => m.id)).toEqual(['mail-2']);
    expect((await listOutbox(db.sql, { to: 'someone@example.org' })).map((m) => m.id)).toEqual(['mail-3']);
    expect(await listOutbox(db.sql, { limit: 1 })).toHaveLength(1);

    await vault.shred('user-u1');
    const erased = (await listOutbox(db.sql)).find((m) => m.id === 'mail-1');
    expect(erased).toMatchObject({ to: ERASED, subject: ERASED, text: ERASED });
    expect((await listOutbox(db.sql)).find((m) => m.id === 'mail-2')?.text).toBe('From Petronella');
    expect(await listOutbox(db.sql, { to: mail.to })).toEqual([]);
  });

  it("keeps attachments with the mail, names and contents sealed with the subject's key, types readable; [erased] with the key", async () => {
    await vault.keysFor(['user-u2']);
    const invite = 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nATTENDEE;CN="Wilhelmina":mailto:wilhelmina@example.com\r\nEND:VCALENDAR\r\n';
    const files = [
      { filename: 'topmark-session.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: invite },
      { filename: 'Wilhelmina-notes.txt', contentType: 'text/plain', content: 'Notes for Wilhelmina' },
    ];
    await mailer.send({
      id: 'mail-5',
      to: 'wilhelmina@example.com',
      subject: 'Booked',
      text: 'Hi',
      dataSubject: 'user-u2',
      attachments: files,
    });
    const plainFile = { filename: 'plain.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: 'BEGIN:VCALENDAR' };
    await mailer.send({ id: 'mail-6', to: 'plain@example.org', subject: 'Plain', text: 'x', attachments: [plainFile] });
    const stored = await raw();
    expect(stored).not.toContain('Wilhelmina');
    expect(stored).toContain('text/calendar; charset=utf-8; method=REQUEST');

    const listed = await listOutbox(db.sql, { to: 'wilhelmina@example.com' });
    expect(listed.map((m) => m.attachments)).toEqual([files]);
    expect((await listOutbox(db.sql, { to: 'plain@example.org' }))[0]?.attachments).toEqual([plainFile]);
    // mail sent before attachments existed, or without them, has none
    expect((await listOutbox(db.sql, { to: 'someone@example.org' }))[0]?.attachments).toEqual([]);

    await vault.shred('user-u2');
    expect((await listOutbox(db.sql)).find((m) => m.id === 'mail-5')?.attachments).toEqual([
      { filename: ERASED, contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: ERASED },
      { filename: ERASED, contentType: 'text/plain', content: ERASED },
    ]);
  });

  it('keeps nothing readable of a mail whose data subject was erased before it was sent, and never recreates the key', async () => {
    await mailer.send({
      id: 'mail-4',
      to: 'late@example.com',
      subject: 'Late',
      text: 'Too late for Petronella',
      dataSubject: 'user-u1',
      attachments: [{ filename: 'late.ics', contentType: 'text/calendar', content: 'Petronella' }],
    });
    expect(await raw()).not.toContain('late@example.com');
    expect(await raw()).not.toContain('late.ics');
    expect((await listOutbox(db.sql)).find((m) => m.id === 'mail-4')).toMatchObject({
      to: ERASED,
      subject: ERASED,
      text: ERASED,
      attachments: [{ filename: ERASED, contentType: 'text/calendar', content: ERASED }],
    });
    expect(await db.sql`SELECT subject FROM personal_data_keys WHERE subject = 'user-u1'`).toHaveLength(0);
  });
});
