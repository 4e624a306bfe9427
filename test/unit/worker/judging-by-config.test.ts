import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../../shared/config/index.js';
import type { Judging } from '../../../shared/worker/evaluate-case.js';
import { judgingByConfig, type JudgingSecrets } from '../../../shared/worker/judging-by-config.js';
import type { RunConfig } from '../../../shared/config/index.js';

const CONFIG: RunConfig = { ...configFileSchema.parse({ judges: ['correctness'] }), strict: false };

/** judgingFor over a judge key the test sets, recording the key each judging was built with. */
function judgingWithKey(initialKey: string | undefined) {
  const state = { key: initialKey };
  const builtWith: (string | undefined)[] = [];
  const judgingFor = judgingByConfig({
    judgeKey: async () => state.key,
    build: (_config, { apiKey }): Judging => {
      builtWith.push(apiKey);
      return { backend: { kind: 'lexical' }, judges: [] };
    },
  });
  return { judgingFor, state, builtWith };
}

describe('judgingByConfig', () => {
  it('builds one judging per config hash while the key stays the same', async () => {
    const { judgingFor, builtWith } = judgingWithKey('sk-1');

    const first = await judgingFor(CONFIG, 'hash-a');
    const again = await judgingFor(CONFIG, 'hash-a');
    const other = await judgingFor(CONFIG, 'hash-b');

    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(builtWith).toEqual(['sk-1', 'sk-1']);
  });

  it.each([
    ['rotated', 'sk-1', 'sk-2'],
    ['set after being empty', undefined, 'sk-1'],
    ['removed', 'sk-1', undefined],
  ])('rebuilds the judging with the key when the key is %s', async (_name, before, after) => {
    // Prepare
    const { judgingFor, state, builtWith } = judgingWithKey(before);
    const old = await judgingFor(CONFIG, 'hash-a');

    // Act
    state.key = after;
    const rebuilt = await judgingFor(CONFIG, 'hash-a');

    // Assess
    expect(rebuilt).not.toBe(old);
    expect(builtWith).toEqual([before, after]);
    expect(await judgingFor(CONFIG, 'hash-a')).toBe(rebuilt);
  });

  it('builds one judging for the records of a batch that ask at once', async () => {
    const { judgingFor, builtWith } = judgingWithKey('sk-1');

    const judgings = await Promise.all(Array.from({ length: 10 }, () => judgingFor(CONFIG, 'hash-a')));

    expect(new Set(judgings).size).toBe(1);
    expect(builtWith).toEqual(['sk-1']);
  });

  it('passes a failure to read the key on to the caller and builds nothing', async () => {
    const judgingFor = judgingByConfig({
      judgeKey: () => Promise.reject(new Error('Could not read the judge secret')),
      build: () => {
        throw new Error('must not build without a key read');
      },
    });

    await expect(judgingFor(CONFIG, 'hash-a')).rejects.toThrow('Could not read the judge secret');
  });

  it.each([
    ['no judges', []],
    ['deterministic judges only', ['document_recall']],
  ])('builds a config with %s without reading the key, so an empty judge secret stops nothing', async (_name, judges) => {
    // Prepare: a key that cannot be read
    const builtWith: (string | undefined)[] = [];
    const judgingFor = judgingByConfig({
      judgeKey: () => Promise.reject(new Error('Could not read the judge secret')),
      build: (_config, { apiKey }): Judging => {
        builtWith.push(apiKey);
        return { backend: { kind: 'lexical' }, judges: [] };
      },
    });
    const config: RunConfig = { ...configFileSchema.parse({ judges }), strict: false };

    // Act
    await judgingFor(config, 'hash-a');

    // Assess
    expect(builtWith).toEqual([undefined]);
  });
});

const ENGINE_CONFIG: RunConfig = {
  ...configFileSchema.parse({
    judges: ['correctness'],
    engines: [{ name: 'search', http: { url: 'http://127.0.0.1:8000/search', results: 'hits' } }],
  }),
  strict: false,
};

/** judgingFor over a judge key and engine variables the test sets, recording the secrets each judging was built with and the judgings retired. */
function judgingWithEngineSecret(initialVariables: Record<string, string> | undefined) {
  const state = { variables: initialVariables, engineReads: 0 };
  const builtWith: JudgingSecrets[] = [];
  const retired: Judging[] = [];
  const judgingFor = judgingByConfig({
    judgeKey: async () => 'sk-1',
    engineVariables: async () => {
      state.engineReads += 1;
      return state.variables;
    },
    build: (_config, secrets): Judging => {
      builtWith.push(secrets);
      return { backend: { kind: 'lexical' }, judges: [], engines: [] };
    },
    retire: (judging) => retired.push(judging),
  });
  return { judgingFor, state, builtWith, retired };
}

describe('judgingByConfig with live engines', () => {
  it('builds the engines with the engine secret and keeps the judging while its variables are unchanged', async () => {
    const { judgingFor, state, builtWith } = judgingWithEngineSecret({ SEARCH_TOKEN: 'token-1' });

    const first = await judgingFor(ENGINE_CONFIG, 'hash-a');
    state.variables = { SEARCH_TOKEN: 'token-1' };
    const again = await judgingFor(ENGINE_CONFIG, 'hash-a');

    expect(again).toBe(first);
    expect(builtWith).toEqual([{ apiKey: 'sk-1', engineVariables: { SEARCH_TOKEN: 'token-1' } }]);
  });

  it.each([
    ['rotated', { SEARCH_TOKEN: 'token-1' }, { SEARCH_TOKEN: 'token-2' }],
    ['given a new variable', { SEARCH_TOKEN: 'token-1' }, { SEARCH_TOKEN: 'token-1', PG_URL: 'postgres://search@db/search' }],
    ['set after being empty', undefined, { SEARCH_TOKEN: 'token-1' }],
  ])('rebuilds the judging and retires the old one when the engine secret is %s', async (_name, before, after) => {
    // Prepare
    const { judgingFor, state, builtWith, retired } = judgingWithEngineSecret(before);
    const old = await judgingFor(ENGINE_CONFIG, 'hash-a');

    // Act
    state.variables = after;
    const rebuilt = await judgingFor(ENGINE_CONFIG, 'hash-a');

    // Assess
    expect(rebuilt).not.toBe(old);
    expect(builtWith.map((secrets) => secrets.engineVariables)).toEqual([before, after]);
    expect(retired).toEqual([old]);
    expect(retired[0]).toBe(old);
  });

  it('does not read the engine secret for a config without live engines', async () => {
    const { judgingFor, state, builtWith, retired } = judgingWithEngineSecret({ SEARCH_TOKEN: 'token-1' });

    await judgingFor(CONFIG, 'hash-a');
    await judgingFor(CONFIG, 'hash-a');

    expect(state.engineReads).toBe(0);
    expect(builtWith).toEqual([{ apiKey: 'sk-1', engineVariables: undefined }]);
    expect(retired).toEqual([]);
  });

  it('passes a failure to read the engine secret on to the caller and builds nothing', async () => {
    const judgingFor = judgingByConfig({
      judgeKey: async () => 'sk-1',
      engineVariables: () => Promise.reject(new Error('Could not read the engine secret')),
      build: () => {
        throw new Error('must not build without the engine secret read');
      },
    });

    await expect(judgingFor(ENGINE_CONFIG, 'hash-a')).rejects.toThrow('Could not read the engine secret');
  });
});

describe('judgingByConfig where the keys are in the environment (the CLI, the pipeline threads)', () => {
  it('returns the judging a run built before ingest for its own config hash, and builds others once each', async () => {
    // Prepare: the run's own judging, built before the cache existed
    const own: Judging = { backend: { kind: 'lexical' }, judges: [] };
    let builds = 0;
    const judgingFor = judgingByConfig({
      build: (): Judging => {
        builds += 1;
        return { backend: { kind: 'lexical' }, judges: [] };
      },
      known: [{ configHash: 'hash-own', judging: own }],
    });

    // Act
    const forOwn = await judgingFor(CONFIG, 'hash-own');
    const other = await judgingFor(CONFIG, 'hash-other');
    const otherAgain = await judgingFor(CONFIG, 'hash-other');

    // Assess: the seeded judging keeps its usage counters; the held judgings are listed for closing
    expect(forOwn).toBe(own);
    expect(otherAgain).toBe(other);
    expect(builds).toBe(1);
    expect(judgingFor.judgings()).toEqual([own, other]);
  });
});
