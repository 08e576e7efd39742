import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import postgres from 'postgres';

/** `--name <n>` from the command line: a whole number ≥ 1, else `fallback`. */
export function wholeNumberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number`);
  return value;
}

/**
 * A fresh database for one benchmark run on DATABASE_URL, else TEST_DATABASE_URL, else the local
 * server; `drop()` removes it at the end.
 */
export async function freshBenchDatabase() {
  const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `topmark_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let statementsView: postgres.Sql | null | undefined;
  return {
    url: url.toString(),
    /**
     * CPU time so far, in ms, of the server processes serving this database (its connections stay
     * open through a run), from /proc: only when PostgreSQL runs on this machine; null otherwise.
     */
    async postgresCpuMs(): Promise<number | null> {
      const backends = await this.postgresCpuByBackend();
      return backends === null ? null : [...backends.values()].reduce((a, b) => a + b, 0);
    },
    /**
     * The same per server process (pid → CPU ms so far), for a caller that samples through a run
     * and must not lose the time of a connection closed in between; null when not local.
     */
    async postgresCpuByBackend(): Promise<Map<number, number> | null> {
      const rows = await admin<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = ${name}`;
      const backends = new Map<number, number>();
      for (const { pid } of rows) {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
        // Gone since the query (a pool's idle connection closed), or not on this machine.
        if (stat === null) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        backends.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
      }
      // None readable: the server is not on this machine.
      return rows.length > 0 && backends.size === 0 ? null : backends;
    },
    /**
     * Statements PostgreSQL has run for this database so far (the sum of pg_stat_statements'
     * `calls`), or null when the server does not load pg_stat_statements
     * (shared_preload_libraries). The extension is created in this database on the first call.
     */
    async statementsRun(): Promise<number | null> {
      if (statementsView === undefined) {
        const [row] = await admin<{ loaded: boolean }[]>`
          SELECT 'pg_stat_statements' = ANY (string_to_array(replace(current_setting('shared_preload_libraries'), ' ', ''), ',')) AS loaded`;
        statementsView = row?.loaded ? postgres(url.toString(), { max: 1, onnotice: () => {} }) : null;
        await statementsView?.unsafe('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      }
      if (statementsView === null) return null;
      const [row] = await statementsView<{ calls: string | null }[]>`
        SELECT sum(calls)::text AS calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ${name})`;
      return Number(row?.calls ?? 0);
    },
    async drop(): Promise<void> {
      await statementsView?.end();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
