import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import type { eventCatalog } from '../../domain/eventCatalog.ts';
import type { DataOf } from '../../domain/kit/eventDefinition.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { findUserByEmail, findUserById, findUserByLogin, findUserIdByGoogleId } from './queries.ts';
import { users } from './tables.ts';
import { listUsersForAdmin } from './userListQueries.ts';
import { usersProjector } from './usersProjector.ts';

const registered = (userId: string, overrides: Partial<DataOf<typeof eventCatalog, 'UserRegistered'>> = {}) =>
  event(`user-${userId}`, 'UserRegistered', {
    userId,
    username: `name-${userId}`,
    email: `${userId}@example.com`,
    passwordHash: 'argon2-hash',
    role: 'student',
    firstName: 'Ann',
    lastName: 'Lee',
    phone: '+1 416 555 0100',
    authProvider: 'local',
    googleId: null,
    timezone: 'America/Toronto',
    emailVerified: false,
    termsAcceptedAt: '2025-01-02T03:04:05.000Z',
    termsAcceptedIp: '203.0.113.7',
    termsAcceptedVersion: '1.0',
    parentId: null,
    registeredAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  });

const listDefaults = { sort: 'createdAt', order: 'desc', page: 1, pageSize: 25 } as const;

// Every scenario twice: the whole history in one batch, and one event per batch.
describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('users read model, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('users');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [usersProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a registration becomes a row with the profile, and the look-ups find it', async () => {
    await spec.given(registered('u1'));
    expect(await spec.rows(users, { id: 'u1' })).toEqual([
      {
        id: 'u1',
        username: 'name-u1',
        email: 'u1@example.com',
        role: 'student',
        first_name: 'Ann',
        last_name: 'Lee',
        phone: '+1 416 555 0100',
        email_verified: false,
        auth_provider: 'local',
        google_id: null,
        google_token_expiry: null,
        timezone: 'America/Toronto',
        timezone_chosen: false,
        terms_accepted_at: new Date('2025-01-02T03:04:05.000Z'),
        terms_accepted_ip: '203.0.113.7',
        terms_accepted_version: '1.0',
        parent_id: null,
        created_at: new Date('2025-01-02T03:04:05.000Z'),
        last_sign_in_at: null,
        deactivated_at: null,
        deactivation_reason: null,
      },
    ]);
    const lookup = { id: 'u1', role: 'student', username: 'name-u1', email: 'u1@example.com' };
    expect(await findUserByLogin(db.sql, 'NAME-u1')).toEqual(lookup);
    expect(await findUserByLogin(db.sql, 'U1@example.com')).toEqual(lookup);
    expect(await findUserByEmail(db.sql, ' u1@EXAMPLE.com ')).toEqual(lookup);
    expect(await findUserById(db.sql, 'u1')).toEqual(lookup);
    expect(await findUserByLogin(db.sql, 'nobody')).toBeNull();
  });

  it('verification, terms, role, time zone, name, Google link and sign-in change the row', async () => {
    await spec.given(
      registered('u2', { role: 'parent' }),
      event('user-u2', 'EmailVerified', { userId: 'u2', at: '2025-01-03T00:00:00.000Z' }),
      event('user-u2', 'TermsAccepted', { userId: 'u2', version: '2.0', ip: null, at: '2025-01-04T00:00:00.000Z' }),
      event('user-u2', 'RoleChanged', { userId: 'u2', from: 'parent', to: 'tutor', at: '2025-01-05T00:00:00.000Z' }),
      event('user-u2', 'TimezoneChanged', { userId: 'u2', timezone: 'Asia/Tokyo', chosen: true, at: '2025-01-06T00:00:00.000Z' }),
      event('user-u2', 'TimezoneChanged', { userId: 'u2', timezone: 'Europe/Paris', chosen: true, at: '2025-01-06T00:00:00.000Z' }),
      event('user-u2', 'NameChanged', { userId: 'u2', firstName: 'Renée', lastName: 'Okafor', at: '2025-01-06T00:00:00.000Z' }),
      event('user-u2', 'GoogleAccountLinked', {
        userId: 'u2',
        googleId: 'g-2',
        accessToken: 'a',
        refreshToken: 'r',
        tokenExpiry: '2025-02-01T00:00:00.000Z',
        at: '2025-01-07T00:00:00.000Z',
      }),
      event('userActivity-u2', 'SignedIn', { userId: 'u2', via: 'google', at: '2025-01-08T00:00:00.000Z' }),
    );
    const [row] = await spec.rows(users, { id: 'u2' });
    expect(row).toMatchObject({
      email_verified: true,
      terms_accepted_at: new Date('2025-01-04T00:00:00.000Z'),
      terms_accepted_ip: null,
      terms_accepted_version: '2.0',
      role: 'tutor',
      timezone: 'Europe/Paris',
      timezone_chosen: true,
      first_name: 'Renée',
      last_name: 'Okafor',
      google_id: 'g-2',
      google_token_expiry: new Date('2025-02-01T00:00:00.000Z'),
      last_sign_in_at: new Date('2025-01-08T00:00:00.000Z'),
      created_at: new Date('2025-01-02T03:04:05.000Z'),
    });
    expect(await findUserIdByGoogleId(db.sql, 'g-2')).toBe('u2');
  });

  it('a password reset verifies the address too', async () => {
    await spec.given(
      registered('u3'),
      event('user-u3', 'PasswordReset', { userId: 'u3', passwordHash: 'new', at: '2025-01-03T00:00:00.000Z' }),
    );
    expect((await spec.rows(users, { id: 'u3' }))[0]?.email_verified).toBe(true);
  });

  it('deletion removes the row; activity recorded after it changes nothing', async () => {
    await spec.given(
      registered('u4'),
      event('userActivity-u4', 'SignedIn', { userId: 'u4', via: 'password', at: '2025-01-03T00:00:00.000Z' }),
    );
    await spec.given(
      event('user-u4', 'AccountDeleted', { userId: 'u4', at: '2025-01-04T00:00:00.000Z' }),
      event('userActivity-u4', 'SignedIn', { userId: 'u4', via: 'password', at: '2025-01-05T00:00:00.000Z' }),
    );
    expect(await spec.rows(users, { id: 'u4' })).toEqual([]);
    // Its username and e-mail are free again for a new account.
    await spec.given(registered('u5', { username: 'name-u4', email: 'u4@example.com' }));
    expect((await findUserByLogin(db.sql, 'name-u4'))?.id).toBe('u5');
  });

  it('deactivation sets the status with its reason, reactivation clears it; the list filters and searches by it', async () => {
    await spec.given(
      registered('u6', { firstName: 'Dee', lastName: 'Activated', username: 'dee-act', email: 'dee@example.com' }),
      event('user-u6', 'UserDeactivated', { userId: 'u6', reason: 'Chargeback fraud', at: '2025-01-09T00:00:00.000Z' }),
    );
    expect((await spec.rows(users, { id: 'u6' }))[0]).toMatchObject({
      deactivated_at: new Date('2025-01-09T00:00:00.000Z'),
      deactivation_reason: 'Chargeback fraud',
    });
    const deactivated = await listUsersForAdmin(db.sql, { ...listDefaults, status: 'deactivated' });
    expect(deactivated.rows.map((u) => [u.id, u.status, u.deactivationReason])).toEqual([['u6', 'deactivated', 'Chargeback fraud']]);
    expect((await listUsersForAdmin(db.sql, { ...listDefaults, search: 'dee activ' })).rows.map((u) => u.id)).toEqual(['u6']);
    expect((await listUsersForAdmin(db.sql, { ...listDefaults, search: 'DEE@EXAMPLE' })).rows.map((u) => u.id)).toEqual(['u6']);
    // LIKE's wildcards are searched for as themselves.
    expect((await listUsersForAdmin(db.sql, { ...listDefaults, search: '%' })).total).toBe(0);

    await spec.given(event('user-u6', 'UserReactivated', { userId: 'u6', reason: 'Cleared by the bank', at: '2025-01-10T00:00:00.000Z' }));
    expect((await spec.rows(users, { id: 'u6' }))[0]).toMatchObject({ deactivated_at: null, deactivation_reason: null });
    expect((await listUsersForAdmin(db.sql, { ...listDefaults, status: 'deactivated' })).total).toBe(0);
    const active = await listUsersForAdmin(db.sql, { ...listDefaults, status: 'active', sort: 'username', order: 'asc', pageSize: 2 });
    expect(active.rows).toHaveLength(2);
    expect(active.total).toBeGreaterThan(2);
    expect(active.rows.map((u) => u.username)).toEqual([...active.rows.map((u) => u.username)].sort());
  });

  it('events of a user never registered leave no row', async () => {
    await spec.given(event('user-ghost', 'EmailVerified', { userId: 'ghost', at: '2025-01-03T00:00:00.000Z' }));
    expect(await spec.rows(users, { id: 'ghost' })).toEqual([]);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    expect(live.users?.length).toBeGreaterThan(0);
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(await spec.status('users')).toBe('running');
    expect(spec.failures()).toEqual([]);
  });
});
