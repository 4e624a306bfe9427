import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../scripts/build-cli.js';

/**
 * Vitest global setup: builds the CLI before the tests, so the tests that start
 * `cli/bin.js` as a process run the current source rather than an older build.
 * It also gives the CDK apps the tests make one output folder, removed after
 * the run (an App without one writes each synthesis to a new temp folder and
 * leaves it there).
 */
export default async function setup(): Promise<() => void> {
  const cdkOut = mkdtempSync(join(tmpdir(), 'assay-test-cdk-out-'));
  process.env.CDK_OUTDIR = cdkOut;
  await buildCli();
  return () => rmSync(cdkOut, { recursive: true, force: true });
}
