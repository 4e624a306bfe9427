import { describe, expect, it } from 'vitest';
import {
  engineEnvironment,
  EngineSecretError,
  parseEngineSecret,
  refreshingEngineVariables,
} from '../../../shared/engines/engine-secret.js';

const SECRET_NAME = 'the engine secret arn:aws:secretsmanager:us-east-1:123456789012:secret:assay-engines-AbC123';
const MAX_AGE_MS = 300_000;

/** A secret store the test controls: what the next read answers, a clock, and how many reads it served. */
function secretStore(first: string | Error | undefined) {
  const state = { answer: first, reads: 0, now: 1_000_000 };
  const read = refreshingEngineVariables({
    name: SECRET_NAME,
    fetch: async () => {
      state.reads += 1;
      if (state.answer instanceof Error) throw state.answer;
      return state.answer;
    },
    maxAgeMs: MAX_AGE_MS,
    now: () => state.now,
  });
  return { read, state };
}

describe('parseEngineSecret', () => {
  it('reads a JSON object of variable names and values', () => {
    expect(parseEngineSecret('{"SEARCH_TOKEN": "tok-1", "PG_URL": "postgres://search:pw@db/search"}')).toEqual({
      SEARCH_TOKEN: 'tok-1',
      PG_URL: 'postgres://search:pw@db/search',
    });
  });

  it('reads an empty text as no variables', () => {
    expect(parseEngineSecret('  ')).toEqual({});
  });

  it.each([
    ['not JSON', 'sk-live-not-json', 'it is not JSON'],
    ['an array', '["sk-live-in-array"]', 'it is not a JSON object'],
    ['a string', '"sk-live-quoted"', 'it is not a JSON object'],
    ['a value that is no string', '{"SEARCH_TOKEN": {"token": "sk-live-nested"}}', 'the value of SEARCH_TOKEN is not a string'],
    ['a key that is no variable name', '{"sk-live-as-key": "x"}', 'a key is not an environment variable name'],
  ])('rejects %s, naming the problem and never the text', (_name, text, problem) => {
    let thrown: unknown;
    try {
      parseEngineSecret(text);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(EngineSecretError);
    expect((thrown as Error).message).toContain(problem);
    expect((thrown as Error).message).not.toContain('sk-live');
  });
});

describe('engineEnvironment', () => {
  it("lays the secret's variables over the process environment", () => {
    const environment = engineEnvironment(
      { SEARCH_URL: 'http://search.internal', SEARCH_TOKEN: 'from-process' },
      { SEARCH_TOKEN: 'from-secret' },
    );

    expect(environment).toEqual({ SEARCH_URL: 'http://search.internal', SEARCH_TOKEN: 'from-secret' });
  });
});

describe('refreshingEngineVariables', () => {
  it('reads the secret once while it is younger than the maximum age, and returns the same variables', async () => {
    const { read, state } = secretStore('{"SEARCH_TOKEN": "tok-1"}');

    const first = await read();
    state.now += MAX_AGE_MS - 1;
    const second = await read();

    expect(first).toEqual({ SEARCH_TOKEN: 'tok-1' });
    expect(second).toBe(first);
    expect(state.reads).toBe(1);
  });

  it('reads a rotated secret once the held one is older than the maximum age', async () => {
    const { read, state } = secretStore('{"SEARCH_TOKEN": "tok-1"}');
    await read();

    state.answer = '{"SEARCH_TOKEN": "tok-2"}';
    state.now += MAX_AGE_MS;

    expect(await read()).toEqual({ SEARCH_TOKEN: 'tok-2' });
    expect(state.reads).toBe(2);
  });

  it('keeps no failed read: a secret that does not parse is read again, and the corrected one used at once', async () => {
    // Prepare
    const { read, state } = secretStore('SEARCH_TOKEN=sk-live-wrong-format');

    // Act
    const failed = read();
    await expect(failed).rejects.toThrow(`Could not read ${SECRET_NAME}: it is not JSON`);
    await expect(read()).rejects.not.toThrow(/sk-live/);
    state.answer = '{"SEARCH_TOKEN": "tok-1"}';
    const corrected = await read();

    // Assess
    expect(corrected).toEqual({ SEARCH_TOKEN: 'tok-1' });
    expect(state.reads).toBe(3);
  });

  it('passes on a failed read from the store and reads again on the next call', async () => {
    const { read, state } = secretStore(new Error("Secrets Manager can't find the specified secret value for staging label: AWSCURRENT"));

    await expect(read()).rejects.toThrow(`Could not read ${SECRET_NAME}: Secrets Manager can't find`);
    state.answer = '{"SEARCH_TOKEN": "tok-1"}';

    expect(await read()).toEqual({ SEARCH_TOKEN: 'tok-1' });
    expect(state.reads).toBe(2);
  });

  it('reads a secret with no value as no variables', async () => {
    const { read } = secretStore(undefined);

    expect(await read()).toBeUndefined();
  });
});
