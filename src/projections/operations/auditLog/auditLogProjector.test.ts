import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { migrate } from '../../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../../kit/projectionSpec.ts';
import { auditLogProjector, REDACTED } from './auditLogProjector.ts';
import { auditTrailOf } from './queries.ts';

const request = { actorId: 'a1', actorRole: 'student', ip: '203.0.113.9', userAgent: 'Firefox' };
const contactId = () => randomUUID();

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('audit log, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('audit');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [auditLogProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('every event becomes a row: who, what, which entity, personal data redacted', async () => {
    const id = randomUUID();
    await spec.given(
      event(
        'user-a1',
        'TermsAccepted',
        { userId: 'a1', version: '2.0', ip: '203.0.113.9', at: '2025-07-01T00:00:00.000Z' },
        { id, metadata: request },
      ),
    );
    const [row] = await auditTrailOf(db.sql, 'user', 'a1');
    expect(row).toMatchObject({
      id,
      user_id: 'a1',
      user_role: 'student',
      action: 'TermsAccepted',
      entity_type: 'user',
      entity_id: 'a1',
      old_values: null,
      new_values: { userId: 'a1', version: '2.0', ip: REDACTED, at: '2025-07-01T00:00:00.000Z' },
      description: 'Terms version 2.0 accepted',
      ip_address: '203.0.113.9',
      user_agent: 'Firefox',
      subject: 'user-a1',
    });
    expect(row?.created_at).toBeInstanceOf(Date);
  });

  it('records the data as the catalogue reads it, and events the catalogue does not know as recorded', async () => {
    const contact = contactId();
    await spec.given(
      // recorded before messages named their sender: read with the schema's default
      {
        stream: `contact-${contact}`,
        type: 'ContactMessageReceived',
        data: {
          contactId: contact,
          name: 'N',
          email: 'e@example.com',
          phone: null,
          subject: 's',
          message: 'm',
          receivedAt: '2025-07-01T00:00:00.000Z',
        },
      },
      { stream: 'legacy-1', type: 'SomethingRetired', data: { note: 'kept' } },
    );
    expect((await auditTrailOf(db.sql, 'contact', contact))[0]).toMatchObject({
      new_values: {
        contactId: contact,
        name: REDACTED,
        email: REDACTED,
        subject: REDACTED,
        message: REDACTED,
        senderUserId: null,
        phone: null,
      },
      subject: `contact-${contact}`,
      description: 'Contact message received',
    });
    expect((await auditTrailOf(db.sql, 'legacy', '1'))[0]).toMatchObject({
      action: 'SomethingRetired',
      new_values: { note: 'kept' },
      description: null,
    });
  });

  it("an erased person's addresses and browsers leave the trail; what happened stays", async () => {
    const contact = contactId();
    await spec.given(
      event(
        'userActivity-a2',
        'SignedIn',
        { userId: 'a2', via: 'password', at: '2025-07-01T00:00:00.000Z' },
        { metadata: { ...request, actorId: 'a2' } },
      ),
      event(
        `contact-${contact}`,
        'ContactMessageReceived',
        {
          contactId: contact,
          name: 'N',
          email: 'e@example.com',
          phone: null,
          subject: 's',
          message: 'm',
          senderUserId: 'a2',
          receivedAt: '2025-07-01T00:00:00.000Z',
        },
        { metadata: { ip: '198.51.100.1', userAgent: 'Safari' } },
      ),
      event('user-a3', 'EmailVerified', { userId: 'a3', at: '2025-07-01T00:00:00.000Z' }, { metadata: { ...request, actorId: 'a3' } }),
    );
    await spec.given(
      event('user-a2', 'AccountDeleted', { userId: 'a2', at: '2025-07-02T00:00:00.000Z' }, { metadata: { ...request, actorId: 'a2' } }),
      event(`contact-${contact}`, 'ContactMessageErased', { contactId: contact, at: '2025-07-02T00:00:00.000Z' }),
    );
    const signIn = (await auditTrailOf(db.sql, 'userActivity', 'a2'))[0];
    expect(signIn).toMatchObject({ action: 'SignedIn', ip_address: null, user_agent: null, description: 'Signed in (password)' });
    const deletion = (await auditTrailOf(db.sql, 'user', 'a2'))[0];
    expect(deletion).toMatchObject({ action: 'AccountDeleted', ip_address: null, user_agent: null });
    expect((await auditTrailOf(db.sql, 'contact', contact)).map((r) => [r.action, r.ip_address, r.user_agent])).toEqual([
      ['ContactMessageReceived', null, null],
      ['ContactMessageErased', null, null],
    ]);
    // Somebody else's trail keeps its request details.
    expect((await auditTrailOf(db.sql, 'user', 'a3'))[0]).toMatchObject({ ip_address: '203.0.113.9', user_agent: 'Firefox' });
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
