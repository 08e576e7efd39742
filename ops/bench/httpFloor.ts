/**
 * npm run bench:floor [-- --json] [-- --requests <n>] [-- --clients <n>]
 * What this machine can serve at most over the booking benchmark's HTTP path, with none of the
 * product's work: a Fastify server (with the cookie plugin) and the same keep-alive load generator
 * in one process, `--clients` (default 50) concurrent clients, and a route that runs K single-row
 * INSERT statements one after another (each its own commit, like an append) on the local
 * PostgreSQL through the project's client, for K = 0, 1, 3, 5, 10 and 20. Requests per second and
 * CPU per request (this process, and the PostgreSQL backends of its connections) for each K.
 *
 * It answers "could the booking figures be reached here at all": a booking request of the booking
 * benchmark is one HTTP exchange plus about 20 statements of the application's client and the job
 * queue's, and 1,000 bookings a second at its 30 % contested share means ~1,430 requests a second.
 * Database: a fresh one on DATABASE_URL / TEST_DATABASE_URL / the local server, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { connect } from '../../src/adapters/db/db.ts';
import { freshBenchDatabase, wholeNumberArg } from './benchDatabase.ts';
import { httpLoad } from './httpLoad.ts';

const STATEMENTS = [0, 1, 3, 5, 10, 20];
const REQUESTS = wholeNumberArg('--requests', 4000);
const CLIENTS = wholeNumberArg('--clients', 50);
const json = process.argv.includes('--json');
const load = loadavg();

const db = await freshBenchDatabase();
const sql = connect(db.url);

interface Figure {
  statements: number;
  requestsPerSecond: number;
  nodeCpuMs: number;
  postgresCpuMs: number | null;
}
const figures: Figure[] = [];
const app = Fastify({ logger: false });
try {
  await sql`CREATE TABLE floor_probe (id text PRIMARY KEY, data jsonb NOT NULL)`;
  await app.register(cookie);
  app.post<{ Querystring: { k: string } }>('/floor', async (req, reply) => {
    const id = randomUUID();
    for (let i = 0; i < Number(req.query.k); i++)
      await sql`INSERT INTO floor_probe (id, data) VALUES (${`${id}/${i}`}, ${JSON.stringify(req.body)}::jsonb)`;
    return reply.code(201).send({ id });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // A first round, not measured, so the first measured row does not pay for the JIT's warm-up.
  for (const k of [-1, ...STATEMENTS]) {
    // Every connection of the pool opened before the clock starts, so the CPU reading sees them all.
    await Promise.all(Array.from({ length: 10 }, () => sql`SELECT pg_sleep(0.01)`));
    const http = httpLoad(base, CLIENTS);
    let sent = 0;
    const node = process.cpuUsage();
    const pgBefore = await db.postgresCpuMs();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (sent++ < REQUESTS) {
          const res = await http.post(
            `/floor?k=${Math.max(k, 1)}`,
            { cookie: 'tm_session=floor' },
            { tutorId: randomUUID(), date: new Date().toISOString(), notes: '' },
          );
          if (res.status !== 201) throw new Error(`unexpected ${res.status}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const nodeCpu = process.cpuUsage(node);
    const pgAfter = await db.postgresCpuMs();
    http.close();
    if (k < 0) continue;
    figures.push({
      statements: k,
      requestsPerSecond: Math.round(REQUESTS / seconds),
      nodeCpuMs: (nodeCpu.user + nodeCpu.system) / 1000 / REQUESTS,
      postgresCpuMs: pgBefore === null || pgAfter === null ? null : (pgAfter - pgBefore) / REQUESTS,
    });
  }
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ floor: figures.map(({ statements, requestsPerSecond }) => ({ statements, requestsPerSecond })) })}\n`,
    );
  } else {
    console.log(`\nload average at the start: ${load.map((l) => l.toFixed(1)).join(', ')} (${availableParallelism()} cores)`);
    console.log(`${CLIENTS} clients, ${REQUESTS.toLocaleString('en-US')} requests per row\n`);
    console.log('| statements per request | requests per second | CPU per request, ms: Node / PostgreSQL |\n|---:|---:|---:|');
    for (const f of figures)
      console.log(
        `| ${f.statements} | ${f.requestsPerSecond.toLocaleString('en-US')} | ${f.nodeCpuMs.toFixed(2)} / ${f.postgresCpuMs === null ? 'n/a' : f.postgresCpuMs.toFixed(2)} |`,
      );
  }
} finally {
  await app.close().catch(() => {});
  await sql.end();
  await db.drop();
}
