import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The database as `pg_dump` sees it: plain SQL, data only, every schema. */
export async function pgDump(url: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', '--no-owner', '--no-privileges', `--dbname=${url}`], {
        maxBuffer: 256 * 1024 * 1024,
      });
      return stdout;
    } catch (error) {
      // pg-boss maintenance may create or drop a partition while the dump locks the tables.
      if (attempt >= 3) throw new Error(`pg_dump failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** The tables (COPY sections of the dump) whose rows contain `needle`, ignoring case. */
export function tablesContaining(dump: string, needle: RegExp): string[] {
  const found = new Set<string>();
  let table = '(outside any table)';
  for (const line of dump.split('\n')) {
    const copy = /^COPY ([^ ]+) /.exec(line);
    if (copy) table = copy[1] as string;
    else if (needle.test(line)) found.add(table);
  }
  return [...found];
}

export const literally = (s: string) => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
