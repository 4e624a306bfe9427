import { storedRuns } from '../support/store-files.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * Node's fetch refuses the WHATWG Fetch standard's "bad ports" before any
 * connection, and the judge client (the openai SDK) and the http engine
 * connector both call through it: a judge or engine URL on such a port can
 * never be reached, so `assay run` refuses it as a usage error before a run
 * starts, instead of retrying a refusal that cannot pass.
 */

const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
/** A key, so that the URL is the only thing wrong: without one the lexical judge would never use it. */
const KEY = { OPENAI_API_KEY: 'sk-bad-port-Tq8Lm2Rz5Wd1' };

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

describe('a judge URL on a port that fetch refuses', () => {
  it.each([1, 10080])('OPENAI_BASE_URL on port %i: exit 2 naming the port and why, and no run started', async (port) => {
    // Prepare
    const store = join(folder.path, `environment-${port}`);

    // Act
    const result = await runBuiltCli(['run', DATASET, '--store', store, '--out', join(store, 'out')], {
      env: { ...KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `assay run: OPENAI_BASE_URL http://127.0.0.1:${port}/v1 uses port ${port}, which fetch refuses to connect to (one of the WHATWG Fetch standard's "bad ports"), so no request could reach the server; run the server on another port, such as 8000, and give that one\n`,
    );
    expect(await storedRuns(store)).toEqual([]);
  });

  const CONFIGS: Record<string, { readonly yaml: string; readonly field: string; readonly port: number }> = {
    'judge.base_url': { yaml: 'judge:\n  base_url: http://127.0.0.1:6000/v1\n', field: 'judge.base_url', port: 6000 },
    'a single judge base_url': {
      yaml: 'judge_settings:\n  safety: {base_url: "http://127.0.0.1:6667/v1"}\n',
      field: 'judge_settings.safety.base_url',
      port: 6667,
    },
    'the Azure endpoint': {
      yaml: 'judge:\n  provider: azure\n  azure: {endpoint: "https://127.0.0.1:6665", deployment: judge, api_version: 2024-10-21}\n',
      field: 'judge.azure.endpoint',
      port: 6665,
    },
    "an http engine's URL": {
      yaml: 'engines:\n  - name: search\n    http: {url: "http://127.0.0.1:9/search?q={{query}}", method: GET, results: "hits"}\n',
      field: 'engines[0].http.url',
      port: 9,
    },
  };

  it.each(Object.entries(CONFIGS))('%s in the config: exit 2 naming the field and the port, and no run started', async (name, config) => {
    // Prepare
    const store = join(folder.path, name.replaceAll(/\W/g, '-'));
    const file = await folder.write(`${name.replaceAll(/\W/g, '-')}.yaml`, config.yaml);

    // Act
    const result = await runBuiltCli(['run', DATASET, '--config', file, '--store', store, '--out', join(store, 'out')], {
      env: { ...KEY, AZURE_OPENAI_API_KEY: 'azure-bad-port-Xb4Nc7' },
    });

    // Assess
    expect(result.exitCode).toBe(2);
    const field = config.field.replaceAll(/[.[\]]/g, '\\$&');
    expect(result.stderr).toMatch(
      new RegExp(
        `^assay run: .*\\.yaml: field "${field}"( \\(engine "search"\\))?: uses port ${config.port}, which fetch refuses to connect to \\(one of the WHATWG Fetch standard's "bad ports"\\), so no request could reach the server \\(fix: run the server on another port, such as 8000, and give that one\\)\\n$`,
      ),
    );
    expect(await storedRuns(store)).toEqual([]);
  });
});
