import { describe, expect, it } from 'vitest';
import { judgeConfigSchema } from '../../../shared/judges/judge-config.js';
import type { Judging } from '../../../shared/pipeline/evaluate-case.js';
import { judgingByConfig } from '../../../shared/pipeline/judging-by-config.js';
import type { RunConfig } from '../../../shared/pipeline/run-config.js';

const CONFIG: RunConfig = { ...judgeConfigSchema.parse({ judges: ['correctness'] }), strict: false };

/** judgingFor over a judge key the test sets, recording the key each judging was built with. */
function judgingWithKey(initialKey: string | undefined) {
  const state = { key: initialKey };
  const builtWith: (string | undefined)[] = [];
  const judgingFor = judgingByConfig({
    judgeKey: async () => state.key,
    build: (_config, apiKey): Judging => {
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
});
