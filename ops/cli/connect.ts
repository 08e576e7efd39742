import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import postgres from 'postgres';
import type { Config } from '../../src/adapters/config/config.ts';
import { createSystem, type System } from '../../src/system.ts';

/** The password src/adapters/db/embeddedPostgres.ts gives the embedded cluster. */
const EMBEDDED_PASSWORD = 'topmark';

export const embeddedUrl = (port: number) => `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`;

/** Logs go to stderr, so that stdout carries only the command's output. */
export function opsLogger(config: Config): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { mode: 'cli' },
      redact: { paths: ['*.email', '*.password'], censor: '[redacted]' },
    },
    pino.destination({ dest: 2, sync: true }),
  );
}

function readPort(file: string, line = 0): number | null {
  try {
    const text = readFileSync(file, 'utf8').split('\n')[line]?.trim() ?? '';
    const port = Number(text);
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

/**
 * Ports a running embedded server under `dataDir` may listen on: the one PostgreSQL itself wrote
 * in postmaster.pid (line 4) while it runs, then the one remembered in pg.port.
 */
export function embeddedPortCandidates(dataDir: string): number[] {
  const root = path.resolve(dataDir);
  const ports = [readPort(path.join(root, 'pg', 'postmaster.pid'), 3), readPort(path.join(root, 'pg.port'))];
  return [...new Set(ports.filter((p): p is number => p !== null))];
}

function sameDirectory(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}

/** The URL of an embedded server already serving `dataDir` (started by `npm start`), or null. */
export async function findRunningEmbedded(dataDir: string, extraPorts: readonly number[] = []): Promise<string | null> {
  const clusterDir = path.join(path.resolve(dataDir), 'pg');
  if (!existsSync(clusterDir)) return null;
  for (const port of new Set([...embeddedPortCandidates(dataDir), ...extraPorts])) {
    const url = embeddedUrl(port);
    const probe = postgres(url, { max: 1, connect_timeout: 2, idle_timeout: 1, onnotice: () => {} });
    try {
      const [row] = await probe<{ dir: string }[]>`SELECT current_setting('data_directory') AS dir`;
      // Some other server on a remembered port is not ours.
      if (row && sameDirectory(row.dir, clusterDir)) return url;
    } catch {
      // nothing (of ours) listening there
    } finally {
      await probe.end({ timeout: 1 }).catch(() => {});
    }
  }
  return null;
}

/**
 * createSystem in 'cli' mode, on the database `npm start` uses: DATABASE_URL when set, otherwise
 * the embedded cluster under DATA_DIR. That cluster can be started by one process only, so when
 * `npm start` already runs it, connect to it by its port instead of starting it.
 */
export async function openSystem(config: Config, log: Logger): Promise<System> {
  if (config.DATABASE_URL) return createSystem(config, 'cli', { log });

  const viaRunning = async (url: string) => {
    log.debug({ dataDir: config.DATA_DIR }, 'using the embedded PostgreSQL server that is already running');
    return createSystem({ ...config, DATABASE_URL: url }, 'cli', { log });
  };

  const running = await findRunningEmbedded(config.DATA_DIR);
  if (running) return viaRunning(running);

  const portFile = path.join(path.resolve(config.DATA_DIR), 'pg.port');
  const remembered = embeddedPortCandidates(config.DATA_DIR);
  try {
    return await createSystem(config, 'cli', { log });
  } catch (error) {
    // Started by someone else between the probe and our attempt: use theirs. startEmbeddedPostgres
    // rewrites pg.port with a fresh port before it finds the cluster locked, so also try the
    // ports known before, and put the right one back for the next run.
    const url = await findRunningEmbedded(config.DATA_DIR, remembered);
    if (!url) throw error;
    const port = new URL(url).port;
    try {
      writeFileSync(portFile, port);
    } catch {
      // read-only data directory: the probe of postmaster.pid still finds it next time
    }
    return viaRunning(url);
  }
}
