import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { PROJECT_ROOT } from './assay-app.js';

const run = promisify(execFile);

/** The CLI synthesis bundles all five functions with esbuild: the slowest step of the infra tests. */
export const CLI_TIMEOUT_MS = 180_000;

/**
 * The suite the nightly schedule re-runs in the synthesized app, as
 * `-c suites=...` gives it: the deployed-bundle test drives that run.
 */
export const NIGHTLY_SUITE = 'support';

export interface CliSynthesis {
  /** The scratch folder holding cdk.out; its node_modules links the project's. */
  readonly folder: string;
  readonly outdir: string;
  readonly exit: { readonly code: number; readonly stderr: string };
}

let synthesis: CliSynthesis | undefined;

/**
 * `npx cdk synth --quiet` the way a user runs it, once for the test file
 * that calls this (beforeAll), in a child process without AWS credentials.
 * It is the one synthesis of the test run that bundles, so every check of
 * the bundles reads its output through cliSynthesis() instead of bundling again.
 */
export function synthesizeWithCliOnce(): void {
  beforeAll(async () => {
    // A scratch folder whose node_modules lets the bundles resolve the AWS SDK they leave out.
    const folder = await mkdtemp(join(tmpdir(), 'assay-cdk-synth-'));
    const outdir = join(folder, 'cdk.out');
    await symlink(join(PROJECT_ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
    const environment = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_DEFAULT_')),
    );
    const args = ['cdk', 'synth', '--quiet', '--output', outdir, '-c', `suites=${NIGHTLY_SUITE}`];
    try {
      const { stderr } = await run('npx', args, { cwd: PROJECT_ROOT, env: environment, maxBuffer: 16 * 1024 * 1024 });
      synthesis = { folder, outdir, exit: { code: 0, stderr } };
    } catch (error) {
      const failed = error as { code?: number; stderr?: string };
      synthesis = { folder, outdir, exit: { code: failed.code ?? -1, stderr: failed.stderr ?? String(error) } };
    }
  }, CLI_TIMEOUT_MS);

  afterAll(async () => {
    if (synthesis !== undefined) await rm(synthesis.folder, { recursive: true, force: true });
    synthesis = undefined;
  });
}

/** The synthesis of this test file; read it inside a test. */
export function cliSynthesis(): CliSynthesis {
  if (synthesis === undefined) throw new Error('The CLI synthesis runs in beforeAll (synthesizeWithCliOnce): read it inside a test');
  return synthesis;
}
