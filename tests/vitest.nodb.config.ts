import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The suites that run without a database: the domain's decider and rule specifications, the API
 * specifications of the features (`*.api.test.ts`, command modules over the in-memory event store,
 * tests/support/apiSpec.ts) and the in-memory store's own contract run. No global setup: nothing
 * probes or starts PostgreSQL. `npm run test:nodb` (a few seconds).
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { alias: { '@shared': fileURLToPath(new URL('../src/domain', import.meta.url)) } },
  test: {
    include: ['src/domain/**/*.test.ts', 'src/**/*.api.test.ts', 'src/adapters/eventstore/memory/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
