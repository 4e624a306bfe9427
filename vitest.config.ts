import { defineConfig } from 'vitest/config';
import { listedFirst } from './test/support/listed-first.js';

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

/**
 * The files started first in their group on a fresh clone, where vitest has
 * timed nothing yet (listed-first.ts): the longest (measured: docs/development.md),
 * those that keep a core busy between those that mostly wait on an emulated
 * stack, a polled job or a killed process, so both cores work from the start.
 */
const FIRST_FILES = [
  'test/e2e/judge-canaries.test.ts',
  'test/e2e/documented-commands.test.ts',
  'test/infra/cdk-synth.test.ts',
  'test/integration/deployed-bedrock-batch.test.ts',
  'test/e2e/batch-judging.test.ts',
  'test/e2e/run-exit-status.test.ts',
  'test/e2e/unreachable-services.test.ts',
  'test/e2e/bedrock-batch-judging.test.ts',
  'test/integration/deployed-batch.test.ts',
  'test/faults/pipeline-faults.test.ts',
  'test/faults/kill-and-resume.test.ts',
  'test/faults/batch-outages.test.ts',
  'test/faults/run-recovery.test.ts',
  'test/faults/batch-broken-files.test.ts',
  'test/e2e/deployed-cli.test.ts',
  'test/e2e/judge-key-required.test.ts',
  'test/e2e/bundled-packages.test.ts',
  'test/integration/split-reduce.test.ts',
  'test/integration/pipeline-embedded.test.ts',
  'test/faults/bedrock-batch-provider-faults.test.ts',
  'test/faults/batch-faults.test.ts',
  'test/faults/bedrock-batch-faults.test.ts',
  'test/infra/stack.test.ts',
  'test/e2e/run-cli.test.ts',
  'test/e2e/cli-start-up.test.ts',
  'test/unit/statistics/large-sample-paired.test.ts',
  'test/unit/reduce/range-partials.test.ts',
  'test/unit/ports/in-process-queue.test.ts',
  'test/unit/trec/run-kernel.test.ts',
  'test/unit/judge-client/bedrock-judge-client.test.ts',
  'test/unit/ports/in-process-queue-spool.test.ts',
  'test/unit/dataset/streaming.test.ts',
  'test/unit/generated-modules.test.ts',
];

/**
 * The end-to-end, fault, integration and infra files wait on child processes,
 * servers and disk most of their time: four at a time on two cores. They go
 * first; then the unit files, three at a time: most are bound by the CPU,
 * some wait on timers and loopback servers.
 */
const PROCESSES = { maxWorkers: 4, sequence: { groupOrder: 0 } };
const UNIT = { maxWorkers: 3, sequence: { groupOrder: 1 } };

export default defineConfig({
  test: {
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 30_000,
    pool: 'threads',
    sequence: { sequencer: listedFirst(FIRST_FILES) },
    projects: [
      {
        extends: true,
        test: {
          // Pure functions and in-process fakes: one module load a worker, not one a file.
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: ISOLATED_FILES,
          ...SHARED_WORKER,
          ...UNIT,
        },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: ['test/{e2e,faults,integration,infra}/**/*.test.ts'],
          exclude: ISOLATED_FILES,
          ...SHARED_WORKER,
          ...PROCESSES,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED_FILES, ...PROCESSES },
      },
    ],
  },
});
