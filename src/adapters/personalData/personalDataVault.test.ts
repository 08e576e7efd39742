import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../db/migrate.ts';
import { ERASED, PersonalDataVault } from './personalDataVault.ts';

describe('personal data vault, several processes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('vault');
    await migrate(db.sql, { eventStore: true });
  });
  afterAll(async () => db.drop());

  it('an erasure done by one process is seen by the next read of another, which had opened the value before', async () => {
    // Two vaults stand for two processes (an API replica and the worker that runs the erasure).
    const api = new PersonalDataVault(db.sql);
    const worker = new PersonalDataVault(db.sql);
    const subject = `user-${Date.now()}`;
    const key = (await api.keysFor([subject])).get(subject);
    if (!key) throw new Error('no key');
    const sealed = api.encrypt(subject, key, 'Petronella Quist');
    expect((await api.decryptAll([sealed])).get(sealed)).toBe('Petronella Quist');
    expect((await worker.decryptAll([sealed])).get(sealed)).toBe('Petronella Quist');

    await worker.shred(subject);

    expect((await api.decryptAll([sealed])).get(sealed)).toBe(ERASED);
    expect(await api.sealWithExistingKey(subject, ['after the erasure'])).toBeNull();
  });

  it('a key made by one process opens on another that had found none a moment before', async () => {
    const a = new PersonalDataVault(db.sql);
    const b = new PersonalDataVault(db.sql);
    const subject = `contact-${Date.now()}`;
    expect(await b.sealWithExistingKey(subject, ['x'])).toBeNull();
    const key = (await a.keysFor([subject])).get(subject);
    if (!key) throw new Error('no key');
    const sealed = a.encrypt(subject, key, 'Quist');
    expect((await b.decryptAll([sealed])).get(sealed)).toBe('Quist');
  });
});
