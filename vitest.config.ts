import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 30_000,
    pool: 'threads',
  },
});
