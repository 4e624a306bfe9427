import { afterAll, beforeAll, vi } from 'vitest';
import { forgetGovernors } from '../../shared/judge-rate/governor-registry.js';
import { forgetSecrets } from '../../shared/secrets/scrub-secrets.js';

/**
 * Setup file of the projects whose files share a worker (isolate: false): a
 * worker thread keeps one process.env for every file it runs, so each file
 * gets back the environment it started with, whatever it stubbed or set and
 * did not put back. Without it, a judge base URL or model one file left set
 * reaches the next file's in-process CLI and SDK clients.
 *
 * The secrets a file's clients remembered (scrub-secrets.ts) are forgotten
 * when it ends too: remembered for the worker's life, a later file's documents
 * would lose every run of 8 characters they share with them (a key named
 * `bedrock-...-secret` cut `bedrock-` out of a document id). So are the
 * judge servers' rate governors: a later server on a port used again would
 * start at the rate an earlier one taught.
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
  forgetSecrets();
  forgetGovernors();
  vi.unstubAllEnvs();
  process.env = workerEnvironment;
  for (const name of Object.keys(process.env)) if (!(name in started)) delete process.env[name];
  Object.assign(process.env, started);
});
