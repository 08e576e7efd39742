/**
 * The audit log's query plans on a large table: fills a fresh database (the local PostgreSQL,
 * TEST_DATABASE_URL or DATABASE_URL) with `--rows` audit rows (default 1,000,000), then shows the
 * plan and time of the console's first page under each filter. Dropped at the end.
 *   npx tsx ops/bench/auditLogPlans.ts [--rows 1000000]
 */
import { connect } from '../../src/adapters/db/db.ts';
import { users } from '../../src/projections/accounts/tables.ts';
import { auditTrailOf, listAuditLog } from '../../src/projections/operations/auditLog/queries.ts';
import { auditLogs } from '../../src/projections/operations/auditLog/tables.ts';
import { freshBenchDatabase, wholeNumberArg } from './benchDatabase.ts';

const ROWS = wholeNumberArg('--rows', 1_000_000);
const db = await freshBenchDatabase();
const sql = connect(db.url, { max: 2 });

/** A query timed over 5 runs after a warm-up, and the plan of `explained`: printed under `label`. */
async function timedPlan(label: string, query: () => Promise<unknown>, explained: string): Promise<void> {
  await query();
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const t = performance.now();
    await query();
    times.push(performance.now() - t);
  }
  const plan = await sql.unsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF) ${explained}`);
  console.log(`\n## ${label}: median ${times.sort((a, b) => a - b)[2]?.toFixed(1)} ms`);
  for (const line of plan) console.log(`   ${line['QUERY PLAN']}`);
}
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
    // The console's own query; the plan of its inner select.
    const where = [
      filter.entityId && `entity_id = '${filter.entityId}'`,
      filter.actorId && `user_id = '${filter.actorId}'`,
      filter.type && `action = '${filter.type}'`,
      filter.from && `created_at >= '${filter.from}'`,
      filter.to && `created_at <= '${filter.to}'`,
    ].filter(Boolean);
    await timedPlan(
      label,
      () => listAuditLog(sql, filter, { before: null, limit: 50 }),
      `SELECT * FROM audit_logs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY position DESC LIMIT 51`,
    );
  }
  // One entity's whole trail in log order (the history views), by type and id.
  await timedPlan(
    'entity trail (type + id, log order)',
    () => auditTrailOf(sql, 'kind2', 'entity-42'),
    `SELECT * FROM audit_logs WHERE entity_type = 'kind2' AND entity_id = 'entity-42' ORDER BY position`,
  );
} finally {
  await sql.end({ timeout: 5 });
  await db.drop();
}
