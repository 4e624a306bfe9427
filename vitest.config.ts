import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 30_000,
    pool: 'threads',
    // Two at a time even on two cores (the default keeps one core free): most files wait on child
    // processes, servers and disk, so the suite takes about 290 s instead of about 360 s.
    maxWorkers: 2,
  },
});
