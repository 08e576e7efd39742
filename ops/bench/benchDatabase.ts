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
  return {
    url: url.toString(),
    /**
     * CPU time so far, in ms, of the server processes serving this database (its connections stay
     * open through a run), from /proc: only when PostgreSQL runs on this machine; null otherwise.
     */
    async postgresCpuMs(): Promise<number | null> {
      const rows = await admin<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = ${name}`;
      let ticks = 0;
      for (const { pid } of rows) {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
        if (stat === null) return null;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      }
      return ticks * 10;
    },
    async drop(): Promise<void> {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
