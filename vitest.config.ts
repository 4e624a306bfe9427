import { defineConfig } from 'vitest/config';

/**
 * Unit files whose module state must be their own: a module mocked with
 * vi.mock (a worker that loaded it for another file would keep the real
 * one), and the secrets every file remembers in one process (scrubbing is
 * tested against exactly the secrets its file remembered).
 */
const ISOLATED_UNIT_FILES = ['test/unit/ports/local-folder-store-listing.test.ts', 'test/unit/secrets/scrub-secrets.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 30_000,
    pool: 'threads',
    // Three at a time on two cores: the end-to-end files wait on child processes, servers and disk most of their time.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        // Pure functions and in-process fakes: one module load a worker, not one a file (most of their time was import).
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: ISOLATED_UNIT_FILES, isolate: false },
      },
      {
        extends: true,
        test: { name: 'processes', include: ['test/{e2e,faults,integration,infra}/**/*.test.ts', ...ISOLATED_UNIT_FILES] },
      },
    ],
  },
});
