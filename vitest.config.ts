import { defineConfig } from 'vitest/config';

export default defineConfig({
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
