/**
 * The audit log's query plans on a large table: fills a fresh database (the local PostgreSQL,
 * TEST_DATABASE_URL or DATABASE_URL) with `--rows` audit rows (default 1,000,000), then shows the
 * plan and time of the console's first page under each filter. Dropped at the end.
 *   npx tsx ops/bench/auditLogPlans.ts [--rows 1000000]
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { connect } from '../../src/adapters/db/db.ts';
import { users } from '../../src/projections/accounts/tables.ts';
import { auditTrailOf, listAuditLog } from '../../src/projections/operations/auditLog/queries.ts';
import { auditLogs } from '../../src/projections/operations/auditLog/tables.ts';

const rowsArg = process.argv.indexOf('--rows');
const ROWS = rowsArg > 0 ? Number(process.argv[rowsArg + 1]) : 1_000_000;
const server = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `topmark_auditplans_${randomBytes(4).toString('hex')}`;

const admin = postgres(server, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`);
const url = new URL(server);
url.pathname = `/${name}`;
const sql = connect(url.toString(), { max: 2 });
try {
  for (const t of [auditLogs, users]) {
    await sql.unsafe(t.ddl);
    for (const index of t.indexStatements) await sql.unsafe(index);
  }
  const started = performance.now();
  // 5,000 entities of 20 kinds, 1,000 actors, 40 event types; positions in log order, a second apart.
  await sql.unsafe(`
    INSERT INTO audit_logs (id, position, user_id, user_role, action, entity_type, entity_id, old_values, new_values,
                            description, ip_address, user_agent, subject, created_at)
    SELECT gen_random_uuid(), lpad(i::text, 20, '0') || lpad('0', 20, '0'),
           CASE WHEN i % 7 = 0 THEN NULL ELSE 'actor-' || (i % 1000) END, 'admin',
           'Type' || (i % 40), 'kind' || (i % 20), 'entity-' || (i % 5000),
           jsonb_build_object('n', i - 1), jsonb_build_object('n', i), 'row ' || i, '203.0.113.1', 'Bench', NULL,
           timestamptz '2026-01-01' + i * interval '1 second'
    FROM generate_series(1, ${ROWS}) AS i`);
  await sql`ANALYZE audit_logs`;
  console.log(`${ROWS.toLocaleString('en-US')} rows in ${Math.round(performance.now() - started)} ms`);

  const mid = new Date(Date.parse('2026-01-01') + (ROWS / 2) * 1000).toISOString();
  const early = new Date(Date.parse('2026-01-01') + 3600 * 1000).toISOString();
  const filters: Record<string, Parameters<typeof listAuditLog>[1]> = {
    none: {},
    entityId: { entityId: 'entity-42' },
    actorId: { actorId: 'actor-7' },
    type: { type: 'Type3' },
    'from/to (last half)': { from: mid },
    'to (first hour)': { to: early },
    'type + from/to': { type: 'Type3', from: early, to: mid },
    'entityId + actorId + type': { entityId: 'entity-42', actorId: 'actor-42', type: 'Type2' },
  };
  for (const [label, filter] of Object.entries(filters)) {
    // The console's own query, timed over 5 runs after a warm-up; the plan of its inner select.
    await listAuditLog(sql, filter, { before: null, limit: 50 });
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      const t = performance.now();
      await listAuditLog(sql, filter, { before: null, limit: 50 });
      times.push(performance.now() - t);
    }
    const where = [
      filter.entityId && `entity_id = '${filter.entityId}'`,
      filter.actorId && `user_id = '${filter.actorId}'`,
      filter.type && `action = '${filter.type}'`,
      filter.from && `created_at >= '${filter.from}'`,
      filter.to && `created_at <= '${filter.to}'`,
    ].filter(Boolean);
    const plan = await sql.unsafe<{ 'QUERY PLAN': string }[]>(
      `EXPLAIN (ANALYZE, COSTS OFF) SELECT * FROM audit_logs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY position DESC LIMIT 51`,
    );
    console.log(`\n## ${label}: median ${times.sort((a, b) => a - b)[2]?.toFixed(1)} ms`);
    for (const line of plan) console.log(`   ${line['QUERY PLAN']}`);
  }
  // One entity's whole trail in log order (the history views), by type and id.
  await auditTrailOf(sql, 'kind2', 'entity-42');
  const trailTimes: number[] = [];
  for (let run = 0; run < 5; run++) {
    const t = performance.now();
    await auditTrailOf(sql, 'kind2', 'entity-42');
    trailTimes.push(performance.now() - t);
  }
  const trailPlan = await sql.unsafe<{ 'QUERY PLAN': string }[]>(
    `EXPLAIN (ANALYZE, COSTS OFF) SELECT * FROM audit_logs WHERE entity_type = 'kind2' AND entity_id = 'entity-42' ORDER BY position`,
  );
  console.log(`\n## entity trail (type + id, log order): median ${trailTimes.sort((a, b) => a - b)[2]?.toFixed(1)} ms`);
  for (const line of trailPlan) console.log(`   ${line['QUERY PLAN']}`);
} finally {
  await sql.end({ timeout: 5 });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
