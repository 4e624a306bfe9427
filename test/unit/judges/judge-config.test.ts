import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunConfig, loadConfigFile, selectJudges, type ConfigFile } from '../../../shared/config/index.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

const YAML_CONFIG = `
judge:
  base_url: http://localhost:11434/v1
  model: qwen2.5:7b
  timeout_ms: 60000
  max_retries: 3
  concurrency: 4
judges: [groundedness, rubric, politeness]
rubric_weights: {correctness: 2, comprehensiveness: 1, readability: 1}
custom_judges:
  - id: politeness
    description: Is the answer polite?
    assessment: ANSWER
    scale: likert_1_5
    template: |
      Rate how polite this answer to "{request}" is.
      {response}
`;

const EXPECTED: ConfigFile = {
  judge: { base_url: 'http://localhost:11434/v1', model: 'qwen2.5:7b', temperature: 0, timeout_ms: 60000, max_retries: 3, concurrency: 4 },
  run: {
    cutoffs: [5, 10],
    deadline_seconds: 3600,
    check_delay_seconds: 1,
    judge_depth: 10,
    list_depth: 100,
    engine_concurrency: 8,
    corrected_estimates: { level: 0.95, min_labelled: 8 },
    p_value_adjustment: { baseline: 'holm', leaderboard: 'benjamini-hochberg' },
  },
  judges: ['groundedness', 'rubric', 'politeness'],
  rubric_weights: { correctness: 2, comprehensiveness: 1, readability: 1 },
  custom_judges: [
    {
      id: 'politeness',
      description: 'Is the answer polite?',
      assessment: 'ANSWER',
      scale: 'likert_1_5',
      template: 'Rate how polite this answer to "{request}" is.\n{response}\n',
    },
  ],
};

async function errorOf(name: string, content: string): Promise<string> {
  const load = await loadConfigFile(await folder.write(name, content));
  if (load.ok) throw new Error(`expected ${name} to be rejected`);
  return load.error;
}

describe('loadConfigFile', () => {
  it.each(['assay.yaml', 'assay.yml'])('reads a YAML file (%s), with temperature 0 by default', async (name) => {
    // Act
    const load = await loadConfigFile(await folder.write(name, YAML_CONFIG));

    // Assess
    expect(load).toEqual({ ok: true, value: EXPECTED });
  });

  it('reads the same settings from a JSON file', async () => {
    // Prepare
    const path = await folder.write('assay.json', JSON.stringify(EXPECTED));

    // Act
    const load = await loadConfigFile(path);

    // Assess
    expect(load).toEqual({ ok: true, value: EXPECTED });
  });

  it('reads an empty YAML file as all defaults', async () => {
    expect(await loadConfigFile(await folder.write('empty.yaml', ''))).toEqual({
      ok: true,
      value: {
        judge: { temperature: 0 },
        run: {
          cutoffs: [5, 10],
          deadline_seconds: 3600,
          check_delay_seconds: 1,
          judge_depth: 10,
          list_depth: 100,
          engine_concurrency: 8,
          corrected_estimates: { level: 0.95, min_labelled: 8 },
          p_value_adjustment: { baseline: 'holm', leaderboard: 'benjamini-hochberg' },
        },
      },
    });
  });

  it.each<[string, string, RegExp[]]>([
    [
      'a misspelt key, naming the file, the field and the keys that exist',
      'judge:\n  temprature: 0.5\n',
      [
        /unknown-key\.yaml: field "judge\.temprature": unknown key \(fix: remove it or correct its spelling; the keys here are provider, azure, bedrock, base_url, model, temperature/,
      ],
    ],
    ['an unknown top-level key', 'judges: [safety]\nthreshold: 0.5\n', [/field "threshold": unknown key/]],
    [
      'an API key in the file',
      'judge:\n  api_key: sk-123\n',
      [/field "judge\.api_key": unknown key \(fix: remove it: the API key is read only from the OPENAI_API_KEY environment variable/],
    ],
    [
      'a scale that does not exist, naming the custom judge',
      'custom_judges:\n  - {id: tone, assessment: ANSWER, template: "{response}", scale: "1-10"}\n',
      [/field "custom_judges\[0\]\.scale" \(judge "tone"\): expected one of yes_no, grade_0_3, likert_1_5, score_0_1, got "1-10"/],
    ],
    [
      'a custom judge that takes a catalog id',
      'custom_judges:\n  - {id: groundedness, assessment: ANSWER, template: "{response}", scale: yes_no}\n',
      [/field "custom_judges\[0\]\.id" \(judge "groundedness"\): "groundedness" is already the id of a built-in judge/],
    ],
    [
      'an unknown placeholder in a custom template',
      'custom_judges:\n  - {id: tone, assessment: ANSWER, template: "Is {answer} polite?", scale: yes_no}\n',
      [/field "custom_judges\[0\]\.template" \(judge "tone"\): unknown placeholder \{answer\}/],
    ],
    [
      'two custom judges with one id',
      'custom_judges:\n  - {id: tone, assessment: ANSWER, template: "{response}", scale: yes_no}\n  - {id: tone, assessment: RETRIEVAL, template: "{context}", scale: yes_no}\n',
      [/field "custom_judges\[1\]\.id" \(judge "tone"\): is defined twice/],
    ],
    [
      'a judge id that does not exist',
      'judges: [groundedness, groundednes]\n',
      [/field "judges\[1\]": unknown judge "groundednes" \(fix: use one of chunk_relevance/],
    ],
    [
      'rubric weights that are all 0',
      'rubric_weights: {correctness: 0, comprehensiveness: 0, readability: 0}\n',
      [/field "rubric_weights": expected at least one weight above 0 \(fix: give three non-negative numbers/],
    ],
    [
      'every problem at once, one per line',
      'judge:\n  temperature: 3\n  concurrency: 0\n',
      [
        /field "judge\.temperature": expected a number <= 2, got number 3/,
        /\n.*field "judge\.concurrency": expected a number >= 1, got number 0/,
      ],
    ],
    [
      'judge calls in flight above the bound',
      'judge:\n  concurrency: 5000\n',
      [
        /field "judge\.concurrency": expected a number <= 1000, got number 5000 \(fix: give how many judge calls may be in flight at once, a whole number from 1 to 1000/,
      ],
    ],
    [
      'live engine calls in flight above the bound',
      'run:\n  engine_concurrency: 1001\n',
      [/field "run\.engine_concurrency": expected a number <= 1000, got number 1001 \(fix: .*from 1 to 1000/],
    ],
    [
      // A run's deadline is a date: 99999999999999 seconds is past the last one, and failed the run after ingest.
      'a deadline past the last date there is',
      'run:\n  deadline_seconds: 99999999999999\n',
      [
        /field "run\.deadline_seconds": expected a number <= 2592000, got number 99999999999999 \(fix: give the seconds \(not milliseconds\) after which missing cases are reported, from 1 to 2592000 \(30 days\)/,
      ],
    ],
    [
      'a deadline in milliseconds',
      'run:\n  deadline_seconds: 3600000\n',
      [/field "run\.deadline_seconds": expected a number <= 2592000, got number 3600000/],
    ],
    [
      'a minimum agreement outside -1 to 1',
      'run:\n  min_agreement: 1.5\n',
      [/field "run\.min_agreement": expected a number <= 1, got number 1\.5 \(fix: give the least Cohen's kappa/],
    ],
    [
      'a p-value adjustment that does not exist, and a misspelt key beside it',
      'run:\n  p_value_adjustment: {baseline: bonferroni, leaderbord: none}\n',
      [
        /field "run\.p_value_adjustment\.baseline": expected one of holm, benjamini-hochberg, none, got "bonferroni" \(fix: give how the p-values against the baseline are adjusted/,
        /field "run\.p_value_adjustment\.leaderbord": unknown key \(fix: remove it or correct its spelling; the keys here are baseline, leaderboard\)/,
      ],
    ],
    [
      "a judge's own base_url with a user and password, without repeating the password",
      'judge_settings:\n  graded_relevance: {base_url: "https://gateway-user:Zq81-own-secret@gateway.example/v1"}\n',
      [
        /field "judge_settings\.graded_relevance\.base_url": holds a user name or password \(user:password@ before the host\) \(fix: give the URL without them and put the key in the OPENAI_API_KEY environment variable, which is sent as a bearer token\)$/,
      ],
    ],
    [
      'a canary set without a dataset, naming the keys that exist',
      'canaries:\n  alpha: 0.01\n',
      [/field "canaries\.dataset": .*\(fix: give the path of a dataset file with human labels/],
    ],
    [
      'a canary level outside 0 to 1, and a misspelt canary key',
      'canaries:\n  dataset: canary.jsonl\n  alpha: 5\n  seed: 3\n',
      [
        /field "canaries\.alpha": expected a number < 1, got number 5 \(fix: give the level of the judge-change tests/,
        /field "canaries\.seed": unknown key \(fix: remove it or correct its spelling; the keys here are dataset, alpha\)/,
      ],
    ],
    ['a list instead of a mapping', '- safety\n', [/: expected an object \(mapping\), got a list \(fix: write an object/]],
    ['broken YAML', 'judge: [unclosed\n', [/not valid YAML: .*line/]],
  ])('rejects %s', async (_described, content, messages) => {
    // Act
    const error = await errorOf('unknown-key.yaml', content);

    // Assess
    expect(error).toMatch(/^.*unknown-key\.yaml: /);
    for (const message of messages) expect(error).toMatch(message);
  });

  it('rejects a YAML alias bomb on one line naming the file, before expanding it', async () => {
    // Prepare: nine levels of nine aliases each would expand to 9^9 strings
    const levels = ['a: &l0 [x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 9; level++)
      levels.push(`l${level}: &l${level} [${Array.from({ length: 9 }, () => `*l${level - 1}`).join(', ')}]`);

    // Act
    const error = await errorOf('bomb.yaml', `${levels.join('\n')}\n`);

    // Assess
    expect(error).toMatch(
      /^.*bomb\.yaml: not usable YAML: its aliases \(\*name\) expand to more than 100 copies of one anchor, as an alias bomb does \(fix: write the repeated values out\)$/,
    );
  });

  const PROTO_PLACES: readonly [string, string, string][] = [
    [
      'thresholds',
      'thresholds:\n  __proto__: {max: 1}\n  engine/latency_ms: {max: 500}\n',
      '{"thresholds": {"__proto__": {"max": 1}, "engine/latency_ms": {"max": 500}}}',
    ],
    ['judge_settings', 'judge_settings:\n  __proto__: {model: gpt-4o}\n', '{"judge_settings": {"__proto__": {"model": "gpt-4o"}}}'],
    [
      'judge.prices.models',
      'judge:\n  prices:\n    models:\n      __proto__: {input_per_million: 1, output_per_million: 2}\n',
      '{"judge": {"prices": {"models": {"__proto__": {"input_per_million": 1, "output_per_million": 2}}}}}',
    ],
  ];

  it.each(PROTO_PLACES.flatMap(([place, yaml, json]) => [[place, 'config.yaml', yaml] as const, [place, 'config.json', json] as const]))(
    'rejects a __proto__ key in %s (%s) instead of dropping it',
    async (place, name, content) => {
      // Act
      const error = await errorOf(name, content);

      // Assess
      expect(error).toMatch(
        new RegExp(
          `config\\.(yaml|json): field "${place.replace(/\./g, '\\.')}\\.__proto__": the key "__proto__" cannot be used \\(fix: remove it or rename it`,
        ),
      );
    },
  );

  it('rejects broken JSON, naming the file', async () => {
    expect(await errorOf('broken.json', '{"judges": [}')).toMatch(/broken\.json: not valid JSON: /);
  });

  it('rejects a file whose format it cannot tell', async () => {
    expect(await errorOf('assay.toml', 'judges = []')).toMatch(
      /assay\.toml: cannot tell the format of the config file \(fix: name it \.yaml, \.yml or \.json\)/,
    );
  });

  it('refuses a UTF-16 config file as what it is, with how to convert it', async () => {
    // Prepare: as Windows PowerShell 5 writes it with `>`
    const path = await folder.write(
      'powershell.yaml',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('judges: [groundedness]\n', 'utf16le')]),
    );

    // Act
    const load = await loadConfigFile(path);

    // Assess: not "expected an object, got" a string of NUL bytes
    expect(load.ok ? '' : load.error).toBe(
      `${path}: the file is UTF-16LE (it starts with the bytes FF FE); assay reads UTF-8 text (fix: save it as UTF-8, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8 (Windows PowerShell 5 writes UTF-16 with > and Out-File; give Out-File -Encoding utf8))`,
    );
  });

  it('reports a missing file as a value, not a crash', async () => {
    const load = await loadConfigFile(`${folder.path}/missing.yaml`);
    expect(load.ok ? '' : load.error).toMatch(/missing\.yaml: cannot read the config file: .*ENOENT/);
  });
});

describe('selectJudges', () => {
  function checked(input: unknown): ConfigFile {
    const load = parseRunConfig(input, 'test.yaml');
    if (!load.ok) throw new Error(load.error);
    return load.value;
  }

  it('returns the listed judges in the listed order, custom ones included', () => {
    expect(selectJudges(EXPECTED).map((judge) => judge.id)).toEqual(['groundedness', 'rubric', 'politeness']);
  });

  it('builds the rubric with the configured weights', () => {
    // Prepare: weights 2/1/1 normalise to 0.5/0.25/0.25
    const [, rubric] = selectJudges(EXPECTED);
    if (rubric?.kind !== 'llm') throw new Error('expected the rubric judge');

    // Act: 0.5 * 3 + 0.25 * 1 + 0.25 * 1 = 2
    const verdict = rubric.verdict({ rationale: 'r', correctness: 3, comprehensiveness: 1, readability: 1 });

    // Assess
    expect(verdict.rating).toBeCloseTo(2, 12);
  });

  it('returns every built-in judge, then the custom ones, when no list is given', () => {
    // Act
    const ids = selectJudges(checked({ custom_judges: EXPECTED.custom_judges })).map((judge) => judge.id);

    // Assess: the 18 built-in judges and the one custom judge
    expect(ids).toHaveLength(19);
    expect(ids.at(0)).toBe('chunk_relevance');
    expect(ids.at(-1)).toBe('politeness');
  });
});
