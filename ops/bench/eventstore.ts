/**
 * npm run bench:eventstore [-- --json]
 * Appends per second through the command handler (1 and 8 writers, one event per append),
 * commands on existing streams (8 writers), events per second with 8 writers appending 10 at a
 * time, and rebuilds over 100,000 events: every projection together (`rebuild --all`: one read of
 * the log for all of them) and the audit log alone. Uses DATABASE_URL when set, else an embedded
 * PostgreSQL under .tmp/bench-pg.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { systemClock } from '../../src/adapters/clock/clock.ts';
import { connect } from '../../src/adapters/db/db.ts';
import { startEmbeddedPostgres } from '../../src/adapters/db/embeddedPostgres.ts';
import { migrate } from '../../src/adapters/db/migrate.ts';
import { PostgresEventStore } from '../../src/adapters/eventstore/postgres/postgresEventStore.ts';
import { receiveContactMessage } from '../../src/commands/contact/receiveContactMessage.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { commandHandler } from '../../src/commands/kit/handleCommand.ts';
import { reservationDecider } from '../../src/domain/accounts/reservationDecider.ts';
import { projectors } from '../../src/projections/projectors.ts';
import { ProjectionRunner } from '../../src/projections/runner/projectionRunner.ts';

const json = process.argv.includes('--json');
const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);

const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres('.tmp/bench-pg');
const serverUrl = process.env.DATABASE_URL ?? (embedded?.url as string);
const dbName = `topmark_bench_${randomBytes(4).toString('hex')}`;
const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${dbName}`);
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;
const sql = connect(url.toString(), { max: 24 });
await migrate(sql, { eventStore: true });
const store = new PostgresEventStore(sql);

const message = { name: 'Bench Writer', email: 'bench@example.com', subject: 'Benchmark', message: 'One event per append' };

async function commandAppends(writers: number, perWriter: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = 0; i < perWriter; i++) await receiveContactMessage(store, message, commandContext({ now: systemClock.now() }));
    }),
  );
  return (writers * perWriter) / ((performance.now() - started) / 1000);
}

/**
 * Commands on streams that already exist (read, decide, append with the exact revision): each
 * writer releases and re-takes reservations on 25 short streams of its own.
 */
async function existingStreamCommands(writers: number, perWriter: number): Promise<number> {
  const reservations = commandHandler(store, reservationDecider, (id) => id);
  const owned = await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const streams = Array.from({ length: 25 }, () => `usernameReservation-bench${w}${randomUUID().slice(0, 8)}`);
      for (const id of streams) {
        await reservations.handle(
          id,
          { type: 'Reserve', data: { holderId: `user-u${w}`, takenMessage: 'taken' } },
          commandContext({ now: systemClock.now() }),
        );
      }
      return streams;
    }),
  );
  const started = performance.now();
  await Promise.all(
    owned.map(async (streams, w) => {
      for (let i = 0; i < perWriter; i++) {
        const id = streams[i % streams.length] as string;
        const release = Math.floor(i / streams.length) % 2 === 0;
        const holderId = `user-u${w}`;
        const command = release
          ? ({ type: 'Release', data: { holderId } } as const)
          : ({ type: 'Reserve', data: { holderId, takenMessage: 'taken' } } as const);
        await reservations.handle(id, command, commandContext({ now: systemClock.now() }));
      }
    }),
  );
  return (writers * perWriter) / ((performance.now() - started) / 1000);
}

async function batchedAppends(writers: number, appends: number, perAppend: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const streamId = `bench-${w}-${randomUUID()}`;
      for (let i = 0; i < appends; i++) {
        const events = Array.from({ length: perAppend }, (_, k) => ({
          id: randomUUID(),
          type: 'ContactConfirmationSent',
          data: { contactId: randomUUID(), mailId: `${i}-${k}`, sentAt: new Date().toISOString() },
          metadata: { commandId: randomUUID(), actorRole: 'system' },
        }));
        await store.append(streamId, events, i === 0 ? 'no_stream' : { exact: i * perAppend - 1 });
      }
    }),
  );
  return (writers * appends * perAppend) / ((performance.now() - started) / 1000);
}

try {
  say('warming up…');
  await commandAppends(4, 100);
  say('1 writer, one event per append…');
  const writers1 = await commandAppends(1, 3000);
  say('8 writers, one event per append…');
  const writers8 = await commandAppends(8, 1000);
  say('8 writers, commands on existing streams…');
  const existing8 = await existingStreamCommands(8, 500);
  say('8 writers, 10 events per append…');
  const batched = await batchedAppends(8, 500, 10);
  const total = await store.countAfter('');
  if (total < 100_000) {
    say(`filling the log to 100,000 events (${total} so far)…`);
    await batchedAppends(8, Math.ceil((100_000 - total) / 8 / 100), 100);
  }
  const events = await store.countAfter('');
  const runner = new ProjectionRunner(sql, store, projectors, { batchSize: 5000 });
  await runner.setup();
  const rebuildRate = async (names: string[]) => {
    const started = performance.now();
    const results = await runner.rebuildAll(names);
    return (results[0]?.done ?? 0) / ((performance.now() - started) / 1000);
  };
  say(`rebuilding every projection together over ${events} events…`);
  const rebuildAll = await rebuildRate(projectors.map((p) => p.name));
  say(`rebuilding the audit log alone over ${events} events…`);
  const rebuildAuditLog = await rebuildRate(['audit_log']);

  const figures = {
    appendsPerSecond: { writers1: Math.round(writers1), writers8: Math.round(writers8) },
    commandsOnExistingStreamsPerSecond: Math.round(existing8),
    batchedEventsPerSecond: Math.round(batched),
    /** Every projection rebuilt together (rebuild --all), events of the log per second. */
    rebuildEventsPerSecond: Math.round(rebuildAll),
    auditLogRebuildEventsPerSecond: Math.round(rebuildAuditLog),
    rebuildEvents: events,
    projections: projectors.length,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } else {
    const rows: [string, string, string][] = [
      ['single-event appends/s, 1 writer (command handler)', figures.appendsPerSecond.writers1.toLocaleString('en-US'), ''],
      ['single-event appends/s, 8 writers (command handler)', figures.appendsPerSecond.writers8.toLocaleString('en-US'), '≥ 5,000'],
      [
        'appends/s, 8 writers, commands on existing streams (read + append)',
        figures.commandsOnExistingStreamsPerSecond.toLocaleString('en-US'),
        '',
      ],
      ['events/s, 8 writers × 10 events per append', figures.batchedEventsPerSecond.toLocaleString('en-US'), ''],
      [
        `rebuild --all events/s (${projectors.length} projections, ${events.toLocaleString('en-US')} events)`,
        figures.rebuildEventsPerSecond.toLocaleString('en-US'),
        '≥ 50,000',
      ],
      ['audit-log rebuild events/s (alone)', figures.auditLogRebuildEventsPerSecond.toLocaleString('en-US'), ''],
    ];
    console.log('\n| measure | figure | target |\n|---|---:|---:|');
    for (const [m, f, t] of rows) console.log(`| ${m} | ${f} | ${t} |`);
  }
} finally {
  await store.close();
  await sql.end({ timeout: 5 });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  await embedded?.stop();
}
