import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildCustomJudge, customJudgeSchema, type CustomJudgeDefinition } from '../../../shared/judges/custom-judge.js';
import { checkJudge } from '../../../shared/judges/judge-definition.js';
import { GRADE_0_3, LIKERT_1_5, SCORE_0_1, YES_NO } from '../../../shared/judges/scale.js';
import { renderTemplate } from '../../../shared/judges/template.js';

/** A valid custom judge; tests change one field at a time. */
function definition(overrides: Partial<CustomJudgeDefinition> = {}): CustomJudgeDefinition {
  return {
    id: 'politeness',
    assessment: 'ANSWER',
    template: 'Is this answer to "{request}" polite?\n\n{response}',
    scale: 'yes_no',
    ...overrides,
  };
}

function built(overrides: Partial<CustomJudgeDefinition> = {}) {
  const build = buildCustomJudge(definition(overrides));
  if (!build.ok) throw new Error(build.error.message);
  return build.value;
}

describe('customJudgeSchema', () => {
  it('accepts a judge as written in a config file', () => {
    expect(customJudgeSchema.safeParse({ ...definition(), description: 'Is the answer polite?', version: '2' }).success).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown key', { ...definition(), temprature: 0.2 }, 'unrecognized_keys'],
    ['an example without a rationale', { ...definition(), examples: [{ response: 'Thanks!', rating: 'yes' }] }, 'invalid_type'],
    ['a scale it does not know', { ...definition(), scale: '1-10' }, 'invalid_value'],
    ['an assessment it does not know', { ...definition(), assessment: 'CHUNK' }, 'invalid_value'],
    ['an id with capitals', { ...definition(), id: 'Politeness' }, 'invalid_format'],
    ['an empty template', { ...definition(), template: '' }, 'too_small'],
  ])('rejects %s', (_described, input, code) => {
    // Act
    const parsed = customJudgeSchema.safeParse(input);

    // Assess
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.code)).toContain(code);
  });
});

describe('buildCustomJudge', () => {
  it.each([
    ['ANSWER', '{request} {context}', 'response', 'response', ['request', 'context']],
    ['RETRIEVAL', '{request} {chunk} {expected_response}', 'retrieval', 'chunk', ['request', 'chunk', 'expected_response']],
  ] as const)('%s judges get scope %s and assessment %s', (assessment, template, scope, judged, inputs) => {
    expect(built({ assessment, template })).toMatchObject({ scope, assessment: judged, inputs });
  });

  it('shows its few-shot examples in the system prompt, braces kept literal, one block per example', () => {
    // Prepare
    const examples = [
      { chunk: 'Rotate keys {daily}.', rating: 3, rationale: 'answers it' },
      { chunk: 'Billing alarms.', rating: 0, rationale: 'off topic' },
    ];

    // Act
    const judge = built({ assessment: 'RETRIEVAL', scale: 'grade_0_3', template: 'Is {chunk} about "{request}"?', examples });

    // Assess
    const system = renderTemplate(judge.systemTemplate, {});
    expect(system).toContain(
      'Examples of judged items, with the rating they deserve:\n\nExample 1\nRetrieved chunk: Rotate keys {daily}.\nRationale: answers it\nRating: 3\n\nExample 2\nRetrieved chunk: Billing alarms.\nRationale: off topic\nRating: 0',
    );
  });

  it.each<[string, CustomJudgeDefinition['examples'], string, RegExp]>([
    [
      'a rating off the scale',
      [{ response: 'Thanks!', rating: 'maybe', rationale: 'unsure' }],
      'examples[0].rating',
      /"maybe" is not a rating of the judge's scale/,
    ],
    [
      'an input the template never shows',
      [{ response: 'Thanks!', expected_response: 'Hi', rating: 'yes', rationale: 'kind' }],
      'examples[0].expected_response',
      /the template has no such placeholder/,
    ],
  ])('rejects an example with %s', (_described, examples, field, message) => {
    // Act
    const build = buildCustomJudge(definition({ examples }));

    // Assess
    expect(build).toMatchObject({ ok: false, error: { field } });
    expect(build.ok ? '' : build.error.problem).toMatch(message);
  });

  it.each([
    ['yes_no', YES_NO],
    ['grade_0_3', GRADE_0_3],
    ['likert_1_5', LIKERT_1_5],
    ['score_0_1', SCORE_0_1],
  ] as const)('the scale %s becomes its Scale, and the answer schema asks for rationale then rating', (name, scale) => {
    // Act
    const judge = built({ scale: name });

    // Assess
    expect(judge.scale).toEqual(scale);
    const schema = z.toJSONSchema(judge.output) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(['rationale', 'rating']);
  });

  it.each([
    ['yes_no', '"rating" is "yes" or "no"'],
    ['grade_0_3', '"rating" is an integer grade from 0 to 3: 0 none, 1 weak, 2 medium, 3 strong'],
    ['likert_1_5', '"rating" is an integer from 1 (worst) to 5 (best)'],
    ['score_0_1', '"rating" is a number from 0 (worst) to 1 (best)'],
  ] as const)('the system prompt of a %s judge states the scale and asks for JSON', (scale, statement) => {
    // Act
    const system = renderTemplate(built({ scale }).systemTemplate, {});

    // Assess
    expect(system).toContain(statement);
    expect(system).toContain('Reply with one JSON object {"rationale": "...", "rating": ...} and nothing else.');
  });

  it('takes its inputs from the placeholders of the template, in a fixed order', () => {
    // Act
    const judge = built({
      template: 'Expected: {expected_response}\nGot: {response}\nContext: {context}\nFacts: {expected_facts}\nAgain {response}',
    });

    // Assess
    expect(judge.inputs).toEqual(['response', 'context', 'expected_response', 'expected_facts']);
    expect(checkJudge(judge)).toEqual({ ok: true, value: undefined });
  });

  it('defaults the version to 1 and writes a description; both can be given', () => {
    expect(built()).toMatchObject({ version: '1', description: 'Custom answer judge on a yes_no scale.' });
    expect(built({ version: '3', description: 'Is the answer polite?' })).toMatchObject({
      version: '3',
      description: 'Is the answer polite?',
    });
  });

  it('rates with the scale it names: 4 on 1-5 is 0.75', () => {
    expect(built({ scale: 'likert_1_5' }).verdict({ rationale: 'mostly polite', rating: 4 })).toEqual({
      rating: 4,
      value: 0.75,
      rationale: 'mostly polite',
    });
  });

  it.each<[string, Partial<CustomJudgeDefinition>, string, RegExp]>([
    [
      'an id of a built-in judge',
      { id: 'correctness' },
      'id',
      /"correctness" is already the id of a built-in judge \(fix: choose an id that no built-in judge uses/,
    ],
    ['an unknown placeholder', { template: 'Is {response} polite to {user}?' }, 'template', /unknown placeholder \{user\}/],
    [
      'the per-chunk placeholder in an ANSWER judge',
      { template: 'Is {chunk} polite?' },
      'template',
      /\{chunk\} is only filled for RETRIEVAL judges/,
    ],
    [
      'the whole context in a RETRIEVAL judge',
      { assessment: 'RETRIEVAL', template: 'Is {context} about {request}?' },
      'template',
      /\{context\} is not filled for RETRIEVAL judges/,
    ],
    [
      'a RETRIEVAL judge that never shows the chunk',
      { assessment: 'RETRIEVAL', template: 'Is {request} clear?' },
      'template',
      /never shows it/,
    ],
    [
      'a template without placeholders',
      { template: 'Is it polite?' },
      'template',
      /uses no placeholder, so every case would get the same prompt/,
    ],
  ])('rejects %s, naming the judge and the field', (_described, overrides, field, message) => {
    // Act
    const build = buildCustomJudge(definition(overrides));

    // Assess
    expect(build.ok).toBe(false);
    if (build.ok) return;
    expect(build.error.field).toBe(field);
    expect(build.error.message).toMatch(new RegExp(`^custom judge "${definition(overrides).id}", field "${field}": `));
    expect(build.error.message).toMatch(message);
  });

  it('rejects an id taken by another judge when the caller names the taken ids', () => {
    const build = buildCustomJudge(definition(), new Set(['politeness']));
    expect(build.ok ? '' : build.error.message).toMatch(/^custom judge "politeness", field "id"/);
  });
});
