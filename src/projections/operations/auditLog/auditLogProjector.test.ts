import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { migrate } from '../../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../../kit/projectionSpec.ts';
import { ANONYMOUS_ROLE, auditLogProjector, REDACTED, SYSTEM_ROLE } from './auditLogProjector.ts';
import { auditTrailOf, changesOf } from './queries.ts';

const request = { actorId: 'a1', actorRole: 'student', ip: '203.0.113.9', userAgent: 'Firefox' };
const contactId = () => randomUUID();
/** Changes by field name: jsonb keeps its own key order. */
const changes = (row: Parameters<typeof changesOf>[0] | undefined) =>
  changesOf(row ?? { old_values: null, new_values: null }).sort((a, b) => a.field.localeCompare(b.field));

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

  it("each row holds what the entity's earlier events had set the fields it changes to; personal fields stay masked", async () => {
    const user = `b-${randomUUID()}`;
    await spec.given(
      event(`user-${user}`, 'TimezoneChanged', { userId: user, timezone: 'America/Toronto', at: '2025-07-01T00:00:00.000Z' }),
      event(`user-${user}`, 'NameChanged', { userId: user, firstName: 'Ada', lastName: 'Byron', at: '2025-07-01T01:00:00.000Z' }),
    );
    // A later batch: the earlier values come from the table, not from the batch itself.
    await spec.given(
      event(
        `user-${user}`,
        'TimezoneChanged',
        { userId: user, timezone: 'America/Vancouver', at: '2025-07-02T00:00:00.000Z' },
        { metadata: { ...request, actorId: user } },
      ),
      event(`user-${user}`, 'NameChanged', { userId: user, firstName: 'Ada', lastName: 'Lovelace', at: '2025-07-02T01:00:00.000Z' }),
    );
    const trail = await auditTrailOf(db.sql, 'user', user);
    expect(trail.map((r) => r.action)).toEqual(['TimezoneChanged', 'NameChanged', 'TimezoneChanged', 'NameChanged']);
    const [firstZone, firstName, secondZone, secondName] = trail;
    // Nothing came before the entity's first event: every field is new.
    expect(firstZone?.old_values).toBeNull();
    expect(changes(firstZone)).toEqual([
      { field: 'at', before: null, after: '2025-07-01T00:00:00.000Z' },
      { field: 'timezone', before: null, after: 'America/Toronto' },
      { field: 'userId', before: null, after: user },
    ]);
    // The name event knows the userId and time of the event before it, but no name yet.
    expect(firstName?.old_values).toEqual({ userId: user, at: '2025-07-01T00:00:00.000Z' });
    expect(secondZone).toMatchObject({
      old_values: { userId: user, timezone: 'America/Toronto', at: '2025-07-01T01:00:00.000Z' },
      new_values: { userId: user, timezone: 'America/Vancouver', at: '2025-07-02T00:00:00.000Z' },
      user_id: user,
    });
    expect(changes(secondZone)).toEqual([
      { field: 'at', before: '2025-07-01T01:00:00.000Z', after: '2025-07-02T00:00:00.000Z' },
      { field: 'timezone', before: 'America/Toronto', after: 'America/Vancouver' },
    ]);
    // Names are personal: masked before and after, and listed as changed since nobody can tell.
    expect(secondName?.old_values).toMatchObject({ firstName: REDACTED, lastName: REDACTED });
    expect(JSON.stringify(trail)).not.toContain('Lovelace');
    expect(JSON.stringify(trail)).not.toContain('Byron');
    expect(changes(secondName)).toEqual([
      { field: 'at', before: '2025-07-02T00:00:00.000Z', after: '2025-07-02T01:00:00.000Z' },
      { field: 'firstName', before: REDACTED, after: REDACTED },
      { field: 'lastName', before: REDACTED, after: REDACTED },
    ]);
    // Events without an actor were recorded by the system (sagas, workflows, sweeps).
    expect(firstZone).toMatchObject({ user_id: null, user_role: SYSTEM_ROLE });
  });

  it('a signed-out request acts on the account it is about, or is an anonymous visitor', async () => {
    const user = `d-${randomUUID()}`;
    const contact = contactId();
    const signedOut = { metadata: { ip: '192.0.2.4', userAgent: 'Edge' } };
    await spec.given(
      event(`userActivity-${user}`, 'SignedIn', { userId: user, via: 'password', at: '2025-07-01T00:00:00.000Z' }, signedOut),
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
          senderUserId: null,
          receivedAt: '2025-07-01T00:00:00.000Z',
        },
        signedOut,
      ),
    );
    expect((await auditTrailOf(db.sql, 'userActivity', user))[0]).toMatchObject({
      user_id: user,
      user_role: null,
      ip_address: '192.0.2.4',
    });
    expect((await auditTrailOf(db.sql, 'contact', contact))[0]).toMatchObject({ user_id: null, user_role: ANONYMOUS_ROLE });
  });

  it("an erased person's rows keep before/after values but lose the request details", async () => {
    const user = `c-${randomUUID()}`;
    const as = { metadata: { ...request, actorId: user } };
    await spec.given(
      event(`user-${user}`, 'TimezoneChanged', { userId: user, timezone: 'Europe/Paris', at: '2025-07-01T00:00:00.000Z' }, as),
      event(`user-${user}`, 'TimezoneChanged', { userId: user, timezone: 'Europe/Rome', at: '2025-07-01T01:00:00.000Z' }, as),
      event(`user-${user}`, 'AccountDeleted', { userId: user, at: '2025-07-02T00:00:00.000Z' }, as),
    );
    const trail = await auditTrailOf(db.sql, 'user', user);
    expect(trail.map((r) => [r.action, r.ip_address, r.user_agent])).toEqual([
      ['TimezoneChanged', null, null],
      ['TimezoneChanged', null, null],
      ['AccountDeleted', null, null],
    ]);
    expect(changes(trail[1])).toContainEqual({ field: 'timezone', before: 'Europe/Paris', after: 'Europe/Rome' });
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
