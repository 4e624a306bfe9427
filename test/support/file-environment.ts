import { afterAll, beforeAll, vi } from 'vitest';

/**
 * Setup file of the projects whose files share a worker (isolate: false): a
 * worker thread keeps one process.env for every file it runs, so each file
 * gets back the environment it started with, whatever it stubbed or set and
 * did not put back. Without it, a judge base URL or model one file left set
 * reaches the next file's in-process CLI and SDK clients.
 *
 * A file that replaced process.env with a copy (`process.env = saved`) gets
 * the worker's own object back too: vi.unstubAllEnvs removes a variable from
 * the object process.env was when the worker started, so after a replacement
 * a stubbed variable would outlive its test in every later file.
 */
const WORKER_ENVIRONMENT = Symbol.for('assay.test.worker-environment');
const holder = globalThis as { [WORKER_ENVIRONMENT]?: NodeJS.ProcessEnv };
// Set by the first file the worker runs, before any of its code: the worker's own process.env.
holder[WORKER_ENVIRONMENT] ??= process.env;
const workerEnvironment = holder[WORKER_ENVIRONMENT];

let started: NodeJS.ProcessEnv = {};

beforeAll(() => {
  started = { ...process.env };
});

afterAll(() => {
  vi.unstubAllEnvs();
  process.env = workerEnvironment;
  for (const name of Object.keys(process.env)) if (!(name in started)) delete process.env[name];
  Object.assign(process.env, started);
});
