import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // UI modules import the shared schemas as the browser build does (ui/vite.config.ts).
  resolve: { alias: { '@shared': fileURLToPath(new URL('./src/domain', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.ts', 'ops/**/*.test.ts', 'tests/**/*.test.ts', 'ui/src/**/*.test.{ts,tsx}'],
    globalSetup: ['tests/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // two cores: files run one after another so timings and concurrency tests are not starved
    fileParallelism: false,
    pool: 'forks',
  },
});
