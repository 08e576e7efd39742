import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Sql } from './db.ts';

/**
 * Versioned migrations of the infrastructure tables (event store, checkpoints, keys, outbox,
 * sessions, rate limits, dev identity codes, idempotency). Read models are not here: each
 * projector creates its own tables in `setup` (see docs/migrations.md).
 *
 * Each file of `migrations/` named `NNNN_name.sql` is applied once, in version order, in its own
 * transaction, and recorded in `schema_migrations` with a checksum of its text. Every transaction
 * first takes an advisory lock, so processes starting together (api, projector, worker) apply
 * each migration exactly once; the others wait and then find nothing left to do.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export interface AppliedMigration {
  version: number;
  name: string;
}

/** The key the old per-adapter DDL locked too, so old and new code never migrate at the same time. */
const LOCK = 'topmark:migrate';
const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;
export const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Line endings do not count: a checkout with CRLF endings has the same checksum. */
export function checksumOf(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');
}

/** The migrations of a folder (read relative to this module, so it works from sources under tsx). */
export function loadMigrations(dir: URL = MIGRATIONS_DIR): Migration[] {
  const path = fileURLToPath(dir);
  const migrations = readdirSync(path)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = FILE.exec(file);
      if (!match) throw new MigrationError(`Migration file ${file} is not named NNNN_lower_case_name.sql`);
      const sql = readFileSync(`${path}/${file}`, 'utf8');
      return { version: Number(match[1]), name: match[2] as string, sql, checksum: checksumOf(sql) };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (i > 0 && migrations[i - 1]?.version === m.version) throw new MigrationError(`Two migrations have version ${m.version}`);
  });
  return migrations;
}

const label = (m: { version: number; name: string }) => `${String(m.version).padStart(4, '0')}_${m.name}`;

/**
 * Applies the pending migrations in order; returns those this call applied. Fails, applying
 * nothing, when an applied migration's text has changed or a pending one sorts before an applied
 * one. Versions the database has but this code does not know (a newer release ran) are left alone.
 */
export async function applyMigrations(
  sql: Sql,
  migrations: Migration[],
  log: (line: string) => void = () => {},
): Promise<AppliedMigration[]> {
  const applied: AppliedMigration[] = [];
  for (;;) {
    const next = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtext(${LOCK}))`;
      await tx.unsafe(`
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version    int PRIMARY KEY,
          name       text NOT NULL,
          checksum   text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        );`);
      const rows = await tx<{ version: number; name: string; checksum: string }[]>`
        SELECT version, name, checksum FROM schema_migrations ORDER BY version`;
      const done = new Map(rows.map((r) => [r.version, r]));
      for (const m of migrations) {
        const row = done.get(m.version);
        if (row && row.checksum !== m.checksum) {
          throw new MigrationError(
            `Migration ${label(m)} has changed since it was applied as ${label(row)} on this database ` +
              `(checksum ${row.checksum.slice(0, 12)}… recorded, ${m.checksum.slice(0, 12)}… now). ` +
              'An applied migration must never be edited: restore it and add a new migration for the change.',
          );
        }
      }
      const pending = migrations.find((m) => !done.has(m.version));
      if (!pending) return null;
      const later = rows.find((r) => r.version > pending.version);
      if (later) {
        throw new MigrationError(
          `Migration ${label(pending)} is pending but ${label(later)} is already applied: give it a version after the last applied one.`,
        );
      }
      await tx.unsafe(pending.sql);
      await tx`INSERT INTO schema_migrations (version, name, checksum) VALUES (${pending.version}, ${pending.name}, ${pending.checksum})`;
      return pending;
    });
    if (!next) return applied;
    log(`migration ${label(next)} applied`);
    applied.push({ version: next.version, name: next.name });
  }
}

/**
 * The entry point every process calls at start. The PostgreSQL event-store tables are created
 * whatever `eventStore` says: with EVENTSTORE_URL they stay empty, and every database shares
 * one schema history (the option is accepted for the callers that pass it).
 */
export async function migrate(sql: Sql, options: { eventStore?: boolean; log?: (line: string) => void } = {}): Promise<AppliedMigration[]> {
  return applyMigrations(sql, loadMigrations(), options.log);
}
