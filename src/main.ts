import { loadConfig } from './adapters/config/config.ts';
import { buildApp } from './http/app.ts';
import { createSystem, type Mode } from './system.ts';

const modes: Mode[] = ['all', 'api', 'projector', 'worker'];
const arg = process.argv.find((a) => a.startsWith('--mode='))?.slice('--mode='.length) ?? process.env.MODE ?? 'all';
if (!modes.includes(arg as Mode)) {
  console.error(`Unknown mode ${arg}: use one of ${modes.join(', ')}`);
  process.exit(2);
}
const mode = arg as Mode;
const config = loadConfig();
const system = await createSystem(config, mode);
const app = mode === 'all' || mode === 'api' ? await buildApp(system) : null;

if (app) {
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  console.log(`\nTopmark is running at ${url}\n`);
} else {
  system.log.info(`Topmark ${mode} process running`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    system.log.info(`${signal}: shutting down`);
    await app?.close();
    await system.close();
    process.exit(0);
  });
}
