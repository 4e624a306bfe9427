import { afterEach, beforeEach, vi } from 'vitest';
import { catalogOracle } from './judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server.js';
import { createTempFolder, type TempFolder } from './temp-folder.js';

/** What each test of a file that runs `assay run` against the catalog's judges gets fresh. */
export interface CatalogJudgeRun {
  /** A temporary folder for the test's config, store and report. */
  readonly folder: TempFolder;
  /** The OpenAI-compatible test server, answering every catalog judge; `OPENAI_BASE_URL` points at it. */
  readonly server: OpenAiTestServer;
}

/**
 * Registers the set-up of a file whose tests run the CLI with LLM judges: a
 * fresh folder and judge server per test, the judge key, base URL and model
 * (`judge-model`) in the environment, and all of it removed after the test.
 * Read the fields inside a test, after the set-up ran.
 */
export function useCatalogJudgeRun(): CatalogJudgeRun {
  let folder: TempFolder | undefined;
  let server: OpenAiTestServer | undefined;
  beforeEach(async () => {
    folder = await createTempFolder();
    server = await startOpenAiTestServer({ oracle: catalogOracle });
    vi.stubEnv('OPENAI_API_KEY', 'test-key');
    vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server?.close();
    await folder?.remove();
  });
  const ready = <Value>(value: Value | undefined, name: string): Value => {
    if (value === undefined) throw new Error(`${name} is set up before each test: read it inside one`);
    return value;
  };
  return {
    get folder() {
      return ready(folder, 'folder');
    },
    get server() {
      return ready(server, 'server');
    },
  };
}
