import { defineConfig } from 'vitest/config';

/**
 * Files whose module state must be their own, each in a fresh worker: a module
 * mocked with vi.mock (a worker that loaded it for another file would keep the
 * real one); the secrets every file remembers in one process (scrubbing is
 * tested against exactly the secrets its file remembered); and the files that
 * load a Lambda handler of functions/, which reads its environment and builds
 * its clients once, at its cold start, as Lambda runs it, so a handler loaded
 * for one file would serve the next with the first one's queues and keys.
 */
const ISOLATED_FILES = [
  'test/unit/ports/local-folder-store-listing.test.ts',
  'test/unit/secrets/scrub-secrets.test.ts',
  'test/e2e/deployed-cli.test.ts',
  'test/e2e/documented-commands.test.ts',
  'test/integration/bedrock-judge-worker.test.ts',
  'test/integration/deployed-batch.test.ts',
  'test/integration/deployed-bedrock-batch.test.ts',
  'test/integration/deployed-failure-reasons.test.ts',
  'test/integration/engine-secret-refresh.test.ts',
  'test/integration/judge-key-refresh.test.ts',
  'test/integration/lambda-handlers.test.ts',
];

/** Files sharing a worker get back the environment they started with (file-environment.ts). */
const SHARED_WORKER = { isolate: false, setupFiles: ['test/support/file-environment.ts'] };

export default defineConfig({
  test: {
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 30_000,
    pool: 'threads',
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          // Pure functions and in-process fakes, bound by the CPU: one worker a core, and one module load a worker, not one a file.
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: ISOLATED_FILES,
          ...SHARED_WORKER,
        },
      },
      {
        extends: true,
        test: {
          // The end-to-end, fault, integration and infra files wait on child processes, servers and disk most of their time.
          name: 'processes',
          include: ['test/{e2e,faults,integration,infra}/**/*.test.ts'],
          exclude: ISOLATED_FILES,
          ...SHARED_WORKER,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED_FILES },
      },
    ],
  },
});
