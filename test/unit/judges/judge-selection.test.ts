import { describe, expect, it } from 'vitest';
import { judgesForRun } from '../../../shared/config/index.js';
import { parseRunConfig, selectJudges, type ConfigFile } from '../../../shared/config/index.js';
import type { JudgeDefinition } from '../../../shared/judges/judge-definition.js';
import { schemaNameOf } from '../../../shared/judge-client/judge-overrides.js';

function checked(input: unknown): ConfigFile {
  const load = parseRunConfig(input, 'assay.yaml');
  if (!load.ok) throw new Error(load.error);
  return load.value;
}

function errorOf(input: unknown): string {
  const load = parseRunConfig(input, 'assay.yaml');
  return load.ok ? '' : load.error;
}

const settingsOf = (judge: JudgeDefinition | undefined) =>
  judge?.kind === 'llm' || judge?.kind === 'dag'
    ? { id: judge.id, promptId: judge.promptId, client: judge.client, repeat: judge.repeat }
    : undefined;

const TONE = { id: 'tone', assessment: 'ANSWER', template: 'Is {response} polite?', scale: 'yes_no' };

describe('selectJudges with settings of single judges', () => {
  it('runs a model variant as its judge asked of that model, under the variant id', () => {
    // Act
    const [variant, plain] = selectJudges(checked({ judges: ['graded_relevance@gpt-4o-mini', 'graded_relevance'] }));

    // Assess
    expect(settingsOf(variant)).toEqual({
      id: 'graded_relevance@gpt-4o-mini',
      promptId: 'graded_relevance',
      client: { model: 'gpt-4o-mini' },
      repeat: undefined,
    });
    expect(settingsOf(plain)).toEqual({ id: 'graded_relevance', promptId: undefined, client: undefined, repeat: undefined });
  });

  it('merges a judge own entry, judge_settings of its id and of its variant, and the variant model, the later winning', () => {
    // Prepare
    const config = checked({
      judges: ['tone', 'tone@small-model'],
      custom_judges: [{ ...TONE, model: 'own-model', max_tokens: 300, temperature: 0.2 }],
      judge_settings: {
        tone: { temperature: 0.5, repeat: 3, base_url: 'http://127.0.0.1:8000/v1' },
        'tone@small-model': { max_tokens: 100 },
      },
    });

    // Act
    const [tone, variant] = selectJudges(config);

    // Assess
    expect(settingsOf(tone)).toEqual({
      id: 'tone',
      promptId: undefined,
      client: { model: 'own-model', baseUrl: 'http://127.0.0.1:8000/v1', temperature: 0.5, maxTokens: 300 },
      repeat: 3,
    });
    expect(settingsOf(variant)).toEqual({
      id: 'tone@small-model',
      promptId: 'tone',
      client: { model: 'small-model', baseUrl: 'http://127.0.0.1:8000/v1', temperature: 0.5, maxTokens: 100 },
      repeat: 3,
    });
  });

  it('adds the members of a listed ensemble the list leaves out, after it', () => {
    // Prepare
    const config = checked({
      judges: ['correctness', 'relevance_panel'],
      ensembles: [{ id: 'relevance_panel', members: ['chunk_relevance', 'chunk_relevance@gpt-4o'], combine: 'majority' }],
    });

    // Act
    const judges = selectJudges(config);

    // Assess
    expect(judges.map((judge) => judge.id)).toEqual(['correctness', 'relevance_panel', 'chunk_relevance', 'chunk_relevance@gpt-4o']);
    expect(judges[1]).toMatchObject({
      kind: 'ensemble',
      scope: 'retrieval',
      assessment: 'chunk',
      members: ['chunk_relevance', 'chunk_relevance@gpt-4o'],
    });
  });

  it('runs the ensembles and their members by default beside the default judges', () => {
    // Prepare
    const config = checked({
      ensembles: [{ id: 'graded_panel', members: ['graded_relevance@a', 'graded_relevance@b'], combine: 'median' }],
    });

    // Act
    const ids = judgesForRun(config, 'llm').judges.map((judge) => judge.id);

    // Assess
    expect(ids).toContain('graded_panel');
    expect(ids).toContain('graded_relevance@a');
    expect(ids).toContain('chunk_relevance');
    expect(ids).not.toContain('graded_relevance');
  });
});

describe('parseRunConfig of judge names and settings', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a variant of an unknown judge',
      { judges: ['graded@gpt-4o'] },
      /field "judges\[0\]": unknown judge "graded" \(fix: use one of chunk_relevance/,
    ],
    [
      'a variant model with a slash',
      { judges: ['safety@meta/llama'] },
      /field "judges\[0\]": the model "meta\/llama" of the variant "safety@meta\/llama" has characters a metric name cannot carry \(fix: .*judge_settings\)/,
    ],
    [
      'a variant of a judge that asks no model',
      { judges: ['document_recall@gpt-4o'] },
      /"document_recall" asks no model, so it has no model variants/,
    ],
    [
      'settings of an unknown judge',
      { judge_settings: { graded: { model: 'x' } } },
      /field "judge_settings.graded": unknown judge "graded"/,
    ],
    [
      'a misspelt setting, naming the keys there are',
      { judge_settings: { safety: { modle: 'x' } } },
      /field "judge_settings.safety.modle": unknown key \(fix: .*the keys here are model, base_url, temperature, max_tokens, repeat\)/,
    ],
    [
      'a temperature out of range',
      { judge_settings: { safety: { temperature: 3 } } },
      /field "judge_settings.safety.temperature": expected a number <= 2, got number 3 \(fix: give a number from 0 to 2/,
    ],
    [
      'repeat at temperature 0',
      { judge_settings: { safety: { repeat: 3 } } },
      /field "judge_settings.safety.repeat" \(judge "safety"\): repeat 3 at temperature 0 would draw the same answer 3 times \(fix: give the judge a temperature above 0/,
    ],
    [
      'repeat on a custom judge at the run temperature 0',
      { custom_judges: [{ ...TONE, repeat: 2 }] },
      /field "custom_judges\[0\].repeat" \(judge "tone"\): repeat 2 at temperature 0/,
    ],
    [
      'an ensemble of different scales',
      { ensembles: [{ id: 'panel', members: ['chunk_relevance', 'graded_relevance'], combine: 'majority' }] },
      /field "ensembles\[0\].members" \(ensemble "panel"\): "graded_relevance" rates on 0-3 grade .* but "chunk_relevance" on yes\/no/,
    ],
    [
      'an ensemble of different items',
      { ensembles: [{ id: 'panel', members: ['chunk_relevance', 'safety'], combine: 'majority' }] },
      /"safety" judges each response but "chunk_relevance" judges each chunk/,
    ],
    [
      'a majority of grades',
      { ensembles: [{ id: 'panel', members: ['graded_relevance', 'graded_relevance@gpt-4o'], combine: 'majority' }] },
      /field "ensembles\[0\].combine" \(ensemble "panel"\): "majority" does not fit 0-3 grade .* verdicts \(fix: use mean or median/,
    ],
    [
      'an ensemble with an unknown member',
      { ensembles: [{ id: 'panel', members: ['safety', 'safty'], combine: 'majority' }] },
      /field "ensembles\[0\].members\[1\]" \(ensemble "panel"\): unknown judge "safty"/,
    ],
    [
      'an ensemble of one',
      { ensembles: [{ id: 'panel', members: ['safety'], combine: 'majority' }] },
      /field "ensembles\[0\]\.members": expected at least 2 entries, got 1 \(fix: give two or more judge ids/,
    ],
    [
      'an ensemble named like a judge',
      { ensembles: [{ id: 'safety', members: ['safety', 'safety@x'], combine: 'majority' }] },
      /is already the id of another judge or ensemble/,
    ],
  ])('rejects %s', (_described, input, message) => {
    expect(errorOf(input)).toMatch(message);
  });

  it('accepts repeat where the judge samples at a temperature above 0, and an ensemble listed by id', () => {
    // Act
    const load = parseRunConfig(
      {
        judges: ['safety', 'safety_panel'],
        judge_settings: { safety: { temperature: 0.7, repeat: 5 } },
        ensembles: [{ id: 'safety_panel', members: ['safety', 'safety@gpt-4o'], combine: 'majority' }],
      },
      'assay.yaml',
    );

    // Assess
    expect(load.ok ? '' : load.error).toBe('');
  });
});

describe('schemaNameOf', () => {
  it.each([
    ['graded_relevance', 'graded_relevance'],
    ['graded_relevance@gpt-4o-mini', 'graded_relevance_gpt-4o-mini'],
    ['tone@llama3.1:8b', 'tone_llama3_1_8b'],
    ['x'.repeat(70), 'x'.repeat(64)],
  ])("sends %s as %s, within OpenAI's ^[a-zA-Z0-9_-]{1,64}$", (id, name) => {
    expect(schemaNameOf(id)).toBe(name);
    expect(schemaNameOf(id)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
