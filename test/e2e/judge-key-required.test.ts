import { storedRuns } from '../support/store-files.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';
import { closedPort } from '../support/closed-port.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * Without the provider's key, the offline lexical judge runs only where
 * nothing asked for an LLM judge, and says so on stderr. A command line,
 * config or environment that asks for one (docs/judge-providers.md) is a
 * usage error naming the missing variable: a CI job that lost its key must
 * not report lexical numbers as if nothing happened. The built CLI runs
 * without the developer's OPENAI_, AZURE_OPENAI_, ASSAY_ and AWS_ variables.
 */

const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const LEXICAL_NOTICE =
  'assay: no OPENAI_API_KEY: judging with the offline lexical judge (non-LLM approximations; the judges that need an LLM are not run)';

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

/** A folder name for a case's description. */
const named = (description: string) => description.replaceAll(/\W+/g, '-');

interface Asking {
  readonly config?: string;
  readonly args?: readonly string[];
  readonly env?: Record<string, string>;
  /** What the message names as asking for an LLM judge, and the variable it lacks. */
  readonly request: string;
  readonly variable?: string;
}

const ASKING: Record<string, Asking> = {
  '--batch': { args: ['--batch'], request: '--batch' },
  '--batch --detach': { args: ['--batch', '--detach'], request: '--batch' },
  'judge.model in the config': { config: 'judge:\n  model: gpt-4o-mini\n', request: 'judge.model in CONFIG' },
  'judge.batch in the config': { config: 'judge:\n  batch: true\n', request: 'judge.batch in CONFIG' },
  "a single judge's model in the config": {
    config: 'judge_settings:\n  groundedness: {model: gpt-4o}\n',
    request: 'judge_settings.groundedness.model in CONFIG',
  },
  'a judge only an LLM runs, in --judges': {
    args: ['--judges', 'document_recall,correctness'],
    request: 'the judge correctness in --judges',
  },
  ASSAY_JUDGE_MODEL: { env: { ASSAY_JUDGE_MODEL: 'gpt-4o-mini' }, request: 'ASSAY_JUDGE_MODEL' },
  OPENAI_BASE_URL: { env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, request: 'OPENAI_BASE_URL' },
  'the azure provider': {
    config:
      'judge:\n  provider: azure\n  azure: {endpoint: "https://example.openai.azure.com", deployment: judge, api_version: 2024-10-21}\n',
    request: 'judge.provider in CONFIG',
    variable: 'AZURE_OPENAI_API_KEY',
  },
};

describe('assay run without a judge key', () => {
  it.each(Object.entries(ASKING))(
    'asked for an LLM judge by %s: exit 2 naming the missing variable, and no run started',
    async (name, asking) => {
      // Prepare
      const store = join(folder.path, named(name));
      const config = asking.config === undefined ? undefined : await folder.write(`${named(name)}.yaml`, asking.config);
      const args = [...(config === undefined ? [] : ['--config', config]), ...(asking.args ?? [])];

      // Act
      const result = await runBuiltCli(['run', DATASET, ...args, '--store', store, '--out', join(store, 'out')], { env: asking.env ?? {} });

      // Assess
      const variable = asking.variable ?? 'OPENAI_API_KEY';
      const request = asking.request.replace('CONFIG', config ?? '');
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(
        `assay run: ${variable} is not set, and ${request} asks for an LLM judge; set ${variable} (the offline lexical judge runs only where nothing asks for an LLM judge)\n`,
      );
      expect(await storedRuns(store)).toEqual([]);
    },
  );

  it("judges with the lexical judge where nothing asks for an LLM judge, as in the README's quick start, and says so in one line", async () => {
    // Prepare
    const store = join(folder.path, 'quick-start');

    // Act
    const result = await runBuiltCli(['run', DATASET, '--store', store, '--out', join(store, 'out')]);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.includes('lexical'))).toEqual([LEXICAL_NOTICE]);
    expect(result.stdout).toMatch(/^lexical judge \(non-LLM approximations\): OPENAI_API_KEY is not set$/m);
  });

  it('needs no key where no judge is asked, whatever model the config names', async () => {
    // Prepare: only a judge computed from the labels
    const store = join(folder.path, 'no-judge-call');
    const config = await folder.write('no-judge-call.yaml', 'judge:\n  model: gpt-4o-mini\njudges: [document_recall]\n');

    // Act
    const result = await runBuiltCli(['run', DATASET, '--config', config, '--store', store, '--out', join(store, 'out')]);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toContain('lexical');
  });
});

describe('assay redrive without a judge key', () => {
  it('refuses to judge again with the lexical judge a run an LLM judge judged', async () => {
    // Prepare: a run judged by an LLM judge whose server is down, so that every case failed
    const store = join(folder.path, 'llm-run');
    const key = { OPENAI_API_KEY: 'sk-key-required-Vb7Qe2Lp9', OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` };
    const run = await runBuiltCli(['run', DATASET, '--judges', 'chunk_relevance', '--store', store, '--out', join(store, 'out')], {
      env: key,
    });
    expect(run.exitCode).toBe(1);
    const runId = /^run (r-[0-9a-f]{16})$/m.exec(run.stdout)?.[1] ?? '';

    // Act: the key is gone
    const redrive = await runBuiltCli(['redrive', runId, '--store', store, '--out', join(store, 'out')]);

    // Assess
    expect(redrive.exitCode).toBe(2);
    expect(redrive.stderr).toBe(
      `assay redrive: OPENAI_API_KEY is not set, and run ${runId}, judged by an LLM judge, asks for an LLM judge; set OPENAI_API_KEY (the offline lexical judge runs only where nothing asks for an LLM judge)\n`,
    );
  });
});
