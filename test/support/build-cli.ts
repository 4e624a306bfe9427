import { buildCli } from '../../scripts/build-cli.js';

/**
 * Vitest global setup: builds the CLI before the tests, so the tests that start
 * `cli/bin.js` as a process run the current source rather than an older build.
 */
export default async function setup(): Promise<void> {
  await buildCli();
}
