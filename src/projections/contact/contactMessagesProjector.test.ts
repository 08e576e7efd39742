import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { contactMessagesProjector } from './contactMessagesProjector.ts';
import { contactMessagesOf } from './queries.ts';
import { contactMessages } from './tables.ts';

let n = 0;
const contactId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const received = (id: string, senderUserId: string | null, email = 'pat@example.com') =>
  event(`contact-${id}`, 'ContactMessageReceived', {
    contactId: id,
    name: 'Pat Doe',
    email,
    phone: null,
    subject: 'Lessons',
    message: 'Do you teach chemistry?',
    senderUserId,
    receivedAt: '2025-05-01T00:00:00.000Z',
  });
const mail = (type: 'ContactConfirmationSent' | 'SupportNotifiedOfContact', id: string, sentAt: string) =>
  event(`contact-${id}`, type, { contactId: id, mailId: `mail-${type}-${id}`, sentAt });
const erased = (id: string) => event(`contact-${id}`, 'ContactMessageErased', { contactId: id, at: '2025-05-03T00:00:00.000Z' });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('contact messages, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('contact');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [contactMessagesProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a received message becomes a row with its signed-in sender', async () => {
    const id = contactId();
    await spec.given(received(id, 'user-1'));
    expect(await spec.rows(contactMessages, { id })).toEqual([
      {
        id,
        name: 'Pat Doe',
        email: 'pat@example.com',
        phone: null,
        subject: 'Lessons',
        message: 'Do you teach chemistry?',
        sender_user_id: 'user-1',
        received_at: new Date('2025-05-01T00:00:00.000Z'),
        confirmation_sent_at: null,
        support_notified_at: null,
      },
    ]);
  });

  it('a message recorded before senders were, has none', async () => {
    const id = contactId();
    const old = received(id, null);
    const { senderUserId: _, ...data } = old.data as Record<string, unknown>;
    await spec.given({ ...old, data });
    expect(await spec.rows(contactMessages, { id })).toMatchObject([{ sender_user_id: null }]);
  });

  it('records when the confirmation and the support notification went out, the last of several winning', async () => {
    const id = contactId();
    await spec.given(
      received(id, null),
      mail('ContactConfirmationSent', id, '2025-05-02T00:00:00.000Z'),
      mail('SupportNotifiedOfContact', id, '2025-05-02T01:00:00.000Z'),
      mail('SupportNotifiedOfContact', id, '2025-05-02T02:00:00.000Z'),
    );
    expect(await spec.rows(contactMessages, { id })).toMatchObject([
      { confirmation_sent_at: new Date('2025-05-02T00:00:00.000Z'), support_notified_at: new Date('2025-05-02T02:00:00.000Z') },
    ]);
  });

  it('erasure removes the message, in the batch that received it or a later one', async () => {
    const [a, b] = [contactId(), contactId()];
    await spec.given(received(a, 'user-2'));
    await spec.given(erased(a), received(b, 'user-2'), mail('ContactConfirmationSent', b, '2025-05-02T00:00:00.000Z'), erased(b));
    expect(await spec.rows(contactMessages, { sender_user_id: 'user-2' })).toEqual([]);
  });

  it("finds a person's messages by sender or by address, for the deletion of their account", async () => {
    const [signedIn, sameAddress, other] = [contactId(), contactId(), contactId()];
    await spec.given(
      received(signedIn, 'user-3', 'old-address@example.com'),
      received(sameAddress, null, 'Kim@Example.com'),
      received(other, null, 'someone@example.com'),
    );
    expect(await contactMessagesOf(db.sql, { userId: 'user-3', email: 'kim@example.com' })).toEqual([signedIn, sameAddress]);
    expect(await contactMessagesOf(db.sql, { userId: 'user-3', email: null })).toEqual([signedIn]);
    expect(await contactMessagesOf(db.sql, { userId: null, email: 'KIM@example.com' })).toEqual([sameAddress]);
    // Both halves of the look-up are indexed (the table here is too small for the planner to prefer them unasked).
    const plan = await db.sql.begin(async (tx) => {
      await tx`SET LOCAL enable_seqscan = off`;
      const rows = await tx.unsafe<{ 'QUERY PLAN': string }[]>(
        'EXPLAIN SELECT id FROM contact_messages WHERE sender_user_id = $1 OR lower(email) = lower($2)',
        ['user-3', 'kim@example.com'],
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/contact_messages_sender/);
    expect(plan).toMatch(/contact_messages_email/);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});

describe('contact messages table created before senders were recorded', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('contactold');
    await migrate(db.sql);
  });
  afterAll(() => db.drop());

  it('gains the sender column and its index at setup, keeping its rows', async () => {
    const id = contactId();
    await db.sql.unsafe(`
      CREATE TABLE contact_messages (
        id uuid PRIMARY KEY, name text NOT NULL, email text NOT NULL, phone text, subject text NOT NULL,
        message text NOT NULL, received_at timestamptz NOT NULL, confirmation_sent_at timestamptz, support_notified_at timestamptz);
      INSERT INTO contact_messages (id, name, email, subject, message, received_at) VALUES ('${id}', 'Old', 'old@example.com', 's', 'm', now());`);
    const spec = await projectionSpec(db.sql, [contactMessagesProjector]);
    expect(await spec.rows(contactMessages, { id })).toMatchObject([{ name: 'Old', sender_user_id: null }]);
    const [index] = await db.sql`SELECT 1 FROM pg_indexes WHERE indexname = 'contact_messages_sender'`;
    expect(index).toBeDefined();
    const fresh = contactId();
    await spec.given(received(fresh, 'user-9'));
    expect(await contactMessagesOf(db.sql, { userId: 'user-9', email: null })).toEqual([fresh]);
  });
});
