import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { runBuiltCli } from '../support/built-cli.js';
import { nights, reportNights } from '../support/reported-suite.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay baseline set RUN` finds the run's suite in its manifest, as a user
 * who ran `assay run --suite nightly` expects: no `--suite` to repeat, and a
 * `--suite` that names another suite is refused with the one the run is in.
 */
const SUITE = 'nightly';
let folder: TempFolder;
let store: string;
const [first] = nights(2);
const runId = first?.runId ?? '';

beforeAll(async () => {
  folder = await createTempFolder();
  store = join(folder.path, 'store');
  await reportNights(new LocalFolderStore(store), SUITE, nights(2));
});
afterAll(() => folder.remove());

describe('assay baseline set', () => {
  it("sets the baseline of the run's own suite when --suite is not given", async () => {
    // Act
    const outcome = await runBuiltCli(['baseline', 'set', runId, '--store', store]);

    // Assess
    expect(outcome.stderr).toBe('');
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe(`baseline of suite ${SUITE}: ${runId}\n`);
    const pointer = JSON.parse(await readFile(join(store, 'baselines', `${SUITE}.json`), 'utf8')) as { run_id: string };
    expect(pointer.run_id).toBe(runId);
  });

  it('refuses a --suite that is not the run’s, naming the suite its manifest gives', async () => {
    // Act
    const outcome = await runBuiltCli(['baseline', 'set', runId, '--suite', 'default', '--store', store]);

    // Assess
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(
      `assay baseline set: run ${runId} is in suite ${SUITE} (its manifest says so), not default; leave out --suite, or give --suite ${SUITE}\n`,
    );
  });

  it('accepts a --suite that agrees with the manifest', async () => {
    const outcome = await runBuiltCli(['baseline', 'set', runId, '--suite', SUITE, '--store', store]);

    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe(`baseline of suite ${SUITE}: ${runId}\n`);
  });
});
