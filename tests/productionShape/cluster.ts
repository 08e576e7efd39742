/**
 * The product in its production shape on one machine (issue 20): `MODE=api` processes behind a
 * round-robin HTTP proxy, `MODE=projector` and `MODE=worker` processes, all on one PostgreSQL
 * database, each a real `node src/main.ts` child process. Any process can be killed (SIGKILL, as
 * an OOM killer or a lost host would) and replaced, as an orchestrator would.
 *
 * The proxy balances per request (as nginx's default upstream does), so one user's consecutive
 * requests land on different API processes. Every process carries the browser tests' movable
 * clock (`clockPreload.ts`) so a journey can let a session's start pass.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type ProcessMode = 'api' | 'projector' | 'worker';

export interface ClusterProcess {
  readonly name: string;
  readonly mode: ProcessMode;
  child: ChildProcess;
  /** The API's port (api processes). */
  port: number | null;
  clockPort: number;
  /** Everything the process wrote, for a failure's message. */
  output: string[];
  alive: boolean;
  /** How many requests the proxy sent it. */
  served: number;
}

export interface Cluster {
  /** The proxy's address: the product's one public address. */
  readonly url: string;
  readonly processes: readonly ClusterProcess[];
  byName(name: string): ClusterProcess;
  /** Kills the process (SIGKILL by default) and waits for it to be gone. */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Starts the process again (same name, mode and settings) and waits until it is ready. */
  restart(name: string): Promise<void>;
  /** Moves every process's clock (null: back to the real time). */
  setClock(at: Date | null): Promise<void>;
  /** The tail of every process's output. */
  logs(lines?: number): string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  databaseUrl: string;
  apis?: number;
  projectors?: number;
  workers?: number;
  env?: Record<string, string>;
  /** How long a process may take to start. */
  readyTimeoutMs?: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const clockPreload = path.join(root, 'tests/productionShape/clockPreload.ts');

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

const READY = {
  api: /Topmark is running at http:\/\/127\.0\.0\.1:(\d+)/,
  projector: /Topmark projector process running/,
  worker: /Topmark worker process running/,
} as const;

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
  let clockOffsetMs = 0;
  const proxyPort = await freePort();
  const url = `http://127.0.0.1:${proxyPort}`;
  const baseEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: options.databaseUrl,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: url,
    // Every client reaches the API from the proxy's loopback address: the per-address limits
    // would count all of them as one person (the per-account limits stay on).
    RATE_LIMITS: 'off',
    // Six processes on one server of max_connections 100 (the CI machine's default): 6 × (8 + 4).
    DATABASE_POOL_MAX: '8',
    ...options.env,
  };
  // What the test process itself was given must not leak into the product's processes.
  delete baseEnv.VITEST;
  delete baseEnv.VITEST_POOL_ID;
  delete baseEnv.VITEST_WORKER_ID;
  delete baseEnv.NODE_OPTIONS;

  const processes: ClusterProcess[] = [];

  async function launch(entry: ClusterProcess): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', clockPreload, 'src/main.ts', `--mode=${entry.mode}`], {
      cwd: root,
      env: { ...baseEnv, MOVABLE_CLOCK_PORT: String(entry.clockPort), MOVABLE_CLOCK_OFFSET_MS: String(clockOffsetMs) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    entry.alive = true;
    entry.port = null;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('exit', (code, signal) => {
      entry.alive = false;
      entry.output.push(`[exited: code ${code}, signal ${signal}]`);
    });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${entry.name} did not start within ${readyTimeoutMs} ms:\n${tail(entry, 40)}`)),
        readyTimeoutMs,
      );
      const onLine = (line: string) => {
        entry.output.push(line);
        if (entry.output.length > 2_000) entry.output.splice(0, entry.output.length - 2_000);
        const match = READY[entry.mode].exec(line);
        if (match) {
          if (entry.mode === 'api') entry.port = Number(match[1]);
          clearTimeout(timer);
          resolve();
        }
      };
      for (const stream of [child.stdout, child.stderr]) {
        let buffered = '';
        stream?.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          for (const line of lines) onLine(line);
        });
      }
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${entry.name} exited while starting:\n${tail(entry, 40)}`));
      });
    });
    await ready;
  }

  const tail = (entry: ClusterProcess, lines: number) => entry.output.slice(-lines).join('\n');

  async function add(mode: ProcessMode, n: number): Promise<ClusterProcess> {
    const entry: ClusterProcess = {
      name: `${mode}-${n}`,
      mode,
      child: undefined as unknown as ChildProcess,
      port: null,
      clockPort: await freePort(),
      output: [],
      alive: false,
      served: 0,
    };
    processes.push(entry);
    return entry;
  }

  // Round robin over the API processes that are up, one request at a time.
  let next = 0;
  const proxy: Server = createServer((incoming, outgoing) => {
    const apis = processes.filter((p) => p.mode === 'api' && p.alive && p.port !== null);
    if (apis.length === 0) {
      outgoing.writeHead(502, { 'content-type': 'application/json' }).end('{"message":"no API process is up"}');
      return;
    }
    const target = apis[next++ % apis.length] as ClusterProcess;
    target.served += 1;
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port as number,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress ?? '127.0.0.1' },
        agent: false,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': target.name });
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify({ message: `proxy: ${target.name}: ${error.message}` }));
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));

  const cluster: Cluster = {
    url,
    processes,
    byName(name) {
      const found = processes.find((p) => p.name === name);
      if (!found) throw new Error(`no process ${name}`);
      return found;
    },
    async kill(name, signal = 'SIGKILL') {
      const entry = cluster.byName(name);
      if (!entry.alive) return;
      const gone = new Promise<void>((resolve) => entry.child.once('exit', () => resolve()));
      entry.child.kill(signal);
      await gone;
    },
    async restart(name) {
      const entry = cluster.byName(name);
      if (entry.alive) await cluster.kill(name);
      await launch(entry);
    },
    async setClock(at) {
      clockOffsetMs = at ? at.getTime() - Date.now() : 0;
      await Promise.all(
        processes
          .filter((p) => p.alive)
          .map(async (p) => {
            const res = await fetch(`http://127.0.0.1:${p.clockPort}/clock`, {
              method: 'POST',
              body: JSON.stringify({ at: at ? at.toISOString() : null }),
            });
            if (!res.ok) throw new Error(`${p.name}: the clock did not move (${res.status})`);
          }),
      );
    },
    logs(lines = 30) {
      return processes.map((p) => `--- ${p.name} ---\n${tail(p, lines)}`).join('\n');
    },
    async stop() {
      await Promise.all(processes.map((p) => cluster.kill(p.name, 'SIGKILL')));
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };

  try {
    // One API process first: it applies the migrations and seeds the catalogue; the others then
    // start side by side (they would wait on the migration lock anyway).
    const first = await add('api', 1);
    await launch(first);
    const rest: ClusterProcess[] = [];
    for (let i = 2; i <= (options.apis ?? 2); i++) rest.push(await add('api', i));
    for (let i = 1; i <= (options.projectors ?? 2); i++) rest.push(await add('projector', i));
    for (let i = 1; i <= (options.workers ?? 2); i++) rest.push(await add('worker', i));
    await Promise.all(rest.map((p) => launch(p)));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
