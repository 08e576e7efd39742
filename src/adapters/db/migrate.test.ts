import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { connect } from './db.ts';
import { applyMigrations, checksumOf, loadMigrations, type Migration, migrate } from './migrate.ts';

const migration = (version: number, name: string, sql: string): Migration => ({ version, name, sql, checksum: checksumOf(sql) });

async function recorded(db: TestDatabase) {
  return db.sql<
    { version: number; name: string; checksum: string }[]
  >`SELECT version, name, checksum FROM schema_migrations ORDER BY version`;
}

/** What the code before versioned migrations created (each adapter's CREATE TABLE IF NOT EXISTS), in its oldest shapes. */
const LEGACY_SCHEMA = `
  CREATE TABLE es_streams (stream_id text PRIMARY KEY, category text NOT NULL, revision bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX es_streams_category ON es_streams (category, stream_id);
  CREATE TABLE es_events (txid xid8 NOT NULL DEFAULT pg_current_xact_id(), seq bigserial NOT NULL, event_id uuid NOT NULL,
    stream_id text NOT NULL, revision bigint NOT NULL, type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (txid, seq),
    CONSTRAINT es_events_event_id UNIQUE (event_id), CONSTRAINT es_events_stream_revision UNIQUE (stream_id, revision));
  CREATE TABLE projection_checkpoints (name text PRIMARY KEY, kind text NOT NULL DEFAULT 'projector',
    position text COLLATE "C" NOT NULL DEFAULT '', events_processed bigint NOT NULL DEFAULT 0, status text NOT NULL DEFAULT 'running',
    last_error text, error_position text, error_event_id text, last_event_at timestamptz, updated_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE projection_rebuilds (name text PRIMARY KEY, status text NOT NULL, done bigint NOT NULL DEFAULT 0,
    total bigint NOT NULL DEFAULT 0, events_per_second double precision, started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz, error text);
  CREATE TABLE personal_data_keys (subject text PRIMARY KEY, key bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE mail_outbox (id text PRIMARY KEY, recipient text NOT NULL, subject text NOT NULL, body text NOT NULL,
    sent_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX mail_outbox_recipient ON mail_outbox (lower(recipient), sent_at DESC);
  CREATE TABLE http_idempotency (scope text NOT NULL, key text NOT NULL, request_hash text NOT NULL, status_code int, body jsonb,
    created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (scope, key));
  INSERT INTO es_streams (stream_id, category, revision) VALUES ('contact-1', 'contact', 0);
  INSERT INTO es_events (event_id, stream_id, revision, type, data, metadata)
    VALUES ('00000000-0000-0000-0000-000000000001', 'contact-1', 0, 'Kept', '{}', '{}');`;

describe('versioned migrations', () => {
  const dbs: TestDatabase[] = [];
  const fresh = async () => {
    const db = await createTestDatabase('mig');
    dbs.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });

  it('are numbered files read next to the module, in order', () => {
    const migrations = loadMigrations();
    expect(migrations.length).toBeGreaterThanOrEqual(9);
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    expect(migrations[0]?.name).toBe('event_store');
    for (const m of migrations) expect(m.checksum).toBe(checksumOf(m.sql));
    expect(checksumOf('a\r\nb\r\n')).toBe(checksumOf('a\nb\n'));
  });

  describe('on a fresh database', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await fresh();
    });

    it('apply every migration once and record version, name, checksum and time; a second run is a no-op', async () => {
      const all = loadMigrations();
      const first = await migrate(db.sql, { eventStore: true });
      expect(first.map((m) => m.version)).toEqual(all.map((m) => m.version));
      const rows = await db.sql<{ version: number; name: string; checksum: string; applied_at: Date }[]>`
        SELECT * FROM schema_migrations ORDER BY version`;
      expect(rows.map((r) => [r.version, r.name, r.checksum])).toEqual(all.map((m) => [m.version, m.name, m.checksum]));
      for (const r of rows) expect(r.applied_at).toBeInstanceOf(Date);
      const tables = await db.sql<{ name: string }[]>`
        SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`;
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining([
          'dev_identity_codes',
          'es_events',
          'es_streams',
          'http_idempotency',
          'mail_outbox',
          'personal_data_keys',
          'projection_checkpoints',
          'projection_rebuilds',
          'rate_limits',
          'schema_migrations',
          'user_sessions',
          'workflow_state',
        ]),
      );

      expect(await migrate(db.sql, { eventStore: true })).toEqual([]);
      expect(await migrate(db.sql, { eventStore: false })).toEqual([]);
      expect(await recorded(db)).toEqual(rows.map(({ version, name, checksum }) => ({ version, name, checksum })));
    });

    it('fail loudly, applying nothing, when an applied migration was edited', async () => {
      const [one] = await db.sql<{ checksum: string }[]>`SELECT checksum FROM schema_migrations WHERE version = 4`;
      await db.sql`UPDATE schema_migrations SET checksum = ${'0'.repeat(64)} WHERE version = 4`;
      await expect(migrate(db.sql, { eventStore: true })).rejects.toThrow(/0004_mail_outbox has changed since it was applied/);
      await db.sql`UPDATE schema_migrations SET checksum = ${one?.checksum as string} WHERE version = 4`;
      expect(await migrate(db.sql, { eventStore: true })).toEqual([]);

      // The same seen from the other side: the file's text changed.
      const edited = loadMigrations().map((m) => (m.version === 2 ? migration(2, m.name, `${m.sql}\n-- an afterthought\n`) : m));
      const extra = migration(99, 'not_reached', 'CREATE TABLE not_reached (x int);');
      await expect(applyMigrations(db.sql, [...edited, extra])).rejects.toThrow(/0002_projection_checkpoints has changed/);
      const [reached] = await db.sql`SELECT to_regclass('not_reached') AS t`;
      expect(reached?.t).toBeNull();
    });
  });

  it('apply each migration exactly once when three processes start together', async () => {
    const db = await fresh();
    const connections = [1, 2, 3].map(() => connect(db.url, { max: 1 }));
    try {
      // Not idempotent on purpose: a second application would fail on the existing table.
      const counted = [
        ...loadMigrations(),
        migration(100, 'once', 'CREATE TABLE applied_once (n int); INSERT INTO applied_once VALUES (1);'),
        migration(101, 'twice', 'INSERT INTO applied_once VALUES (2); SELECT pg_sleep(0.05);'),
      ];
      const results = await Promise.all(connections.map((c) => applyMigrations(c, counted)));
      const versions = results.flat().map((m) => m.version);
      expect(versions.sort((a, b) => a - b)).toEqual(counted.map((m) => m.version));
      expect((await recorded(db)).map((r) => r.version)).toEqual(counted.map((m) => m.version));
      expect((await db.sql`SELECT n FROM applied_once ORDER BY n`).map((r) => r.n)).toEqual([1, 2]);
      const again = await Promise.all(connections.map((c) => migrate(c, { eventStore: true })));
      expect(again.flat()).toEqual([]);
    } finally {
      await Promise.all(connections.map((c) => c.end()));
    }
  });

  it('adopt a database the code before migrations created, keeping its data', async () => {
    const db = await fresh();
    await db.sql.unsafe(LEGACY_SCHEMA);
    const applied = await migrate(db.sql, { eventStore: true });
    expect(applied.map((m) => m.version)).toEqual(loadMigrations().map((m) => m.version));
    expect(await db.sql`SELECT stream_id FROM es_events`).toEqual([{ stream_id: 'contact-1' }]);
    const columns = await db.sql<{ table_name: string; column_name: string; collation_name: string | null }[]>`
      SELECT table_name, column_name, collation_name FROM information_schema.columns
      WHERE table_schema = 'public' AND (column_name = 'stream_id' OR (table_name = 'http_idempotency' AND column_name = 'subject'))
      ORDER BY table_name`;
    expect(columns).toEqual([
      { table_name: 'es_events', column_name: 'stream_id', collation_name: 'C' },
      { table_name: 'es_streams', column_name: 'stream_id', collation_name: 'C' },
      { table_name: 'http_idempotency', column_name: 'subject', collation_name: null },
    ]);
    const [index] = await db.sql`SELECT to_regclass('es_streams_category') AS i`;
    expect(index?.i).toBeNull();
    expect(await migrate(db.sql, { eventStore: true })).toEqual([]);
  });

  it('refuse a pending migration numbered below an applied one, and leave versions of a newer release alone', async () => {
    const db = await fresh();
    const a = migration(1, 'a', 'CREATE TABLE m_a (x int);');
    const c = migration(3, 'c', 'CREATE TABLE m_c (x int);');
    expect(await applyMigrations(db.sql, [a, c])).toHaveLength(2);
    const b = migration(2, 'b', 'CREATE TABLE m_b (x int);');
    await expect(applyMigrations(db.sql, [a, b, c])).rejects.toThrow(/0002_b is pending but 0003_c is already applied/);
    // An older release (knows 1 only) starting beside a newer one: nothing to do, no error.
    expect(await applyMigrations(db.sql, [a])).toEqual([]);
  });

  it('roll back a failing migration whole, recording nothing', async () => {
    const db = await fresh();
    const good = migration(1, 'good', 'CREATE TABLE m_good (x int);');
    const bad = migration(2, 'bad', 'CREATE TABLE m_half (x int); SELECT no_such_function();');
    await expect(applyMigrations(db.sql, [good, bad])).rejects.toThrow(/no_such_function/);
    expect((await recorded(db)).map((r) => r.version)).toEqual([1]);
    const [half] = await db.sql`SELECT to_regclass('m_half') AS t`;
    expect(half?.t).toBeNull();
  });
});
