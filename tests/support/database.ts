import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { connect, type Sql } from '../../src/adapters/db/db.ts';

/** The server the tests use: TEST_DATABASE_URL (set by globalSetup) or the local service. */
export function adminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface TestDatabase {
  url: string;
  sql: Sql;
  drop(): Promise<void>;
}

/** A fresh, empty database per test file, so suites never see each other's events. */
export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const name = `topmark_${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const sql = connect(url.toString(), { max: 20 });
  return {
    url: url.toString(),
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      const a = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
