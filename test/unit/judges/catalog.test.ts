import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contextRecall } from '../../../shared/judges/catalog/context-recall.js';
import {
  DEFAULT_RUBRIC_WEIGHTS,
  findJudge,
  JUDGE_CATALOG,
  rubricJudge,
  rubricWeightsSchema,
} from '../../../shared/judges/catalog/index.js';
import { checkJudge, type LlmJudge, type Verdict } from '../../../shared/judges/judge-definition.js';

const CATALOG_IDS = [
  'chunk_relevance',
  'graded_relevance',
  'context_sufficiency',
  'context_recall',
  'document_recall',
  'correctness',
  'relevance_to_query',
  'groundedness',
  'safety',
  'fact_check',
  'relevancy',
  'answer_correctness',
  'answer_faithfulness',
  'answer_relevancy',
  'correctness_score',
  'faithfulness',
  'response_relevancy',
  'rubric',
];

/** Judges whose prompt or answer changed since their first version: the version is part of the cache key. */
const BUMPED_VERSIONS: Readonly<Record<string, string>> = { answer_correctness: '2', answer_faithfulness: '2', answer_relevancy: '2' };

const llmJudges = JUDGE_CATALOG.filter((judge): judge is LlmJudge => judge.kind === 'llm');

/** Parses a hand-made answer with the judge's own schema, as the runner does, then takes its verdict. */
function verdictOf(id: string, answer: unknown): Verdict {
  const judge = findJudge(id);
  if (judge?.kind !== 'llm') throw new Error(`${id} is not an LLM judge`);
  return judge.verdict(judge.output.parse(answer));
}

/** Fields that carry the judgment; each must come after the reasoning in the object that holds it. */
const RATING_FIELDS = ['rating', 'score', 'correctness', 'comprehensiveness', 'readability', 'attributed'];
const REASONING_FIELDS = ['rationale', 'feedback'];

interface JsonSchemaNode {
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
}

/** Every object in a JSON schema that holds rating fields, with its property names in order. */
function ratedObjects(node: JsonSchemaNode): string[][] {
  const nested = [...Object.values(node.properties ?? {}), ...(node.items === undefined ? [] : [node.items])].flatMap(ratedObjects);
  const keys = Object.keys(node.properties ?? {});
  return keys.some((key) => RATING_FIELDS.includes(key)) ? [keys, ...nested] : nested;
}

describe('JUDGE_CATALOG', () => {
  it('lists every judge once, retrieval judges first, in the documented order', () => {
    expect(JUDGE_CATALOG.map((judge) => judge.id)).toEqual(CATALOG_IDS);
  });

  it.each(CATALOG_IDS)('findJudge finds %s', (id) => {
    expect(findJudge(id)?.id).toBe(id);
  });

  it('findJudge returns undefined for an unknown id', () => {
    expect(findJudge('politeness')).toBeUndefined();
  });

  it.each(JUDGE_CATALOG.map((judge) => [judge.id, judge] as const))(
    '%s has its version, a one-sentence description and a source',
    (id, judge) => {
      expect(judge.version).toBe(BUMPED_VERSIONS[id] ?? '1');
      expect(judge.description).toMatch(/^[A-Z].*[.?]$/);
      expect(judge.description.split(/[.?] /).length).toBeLessThanOrEqual(2);
      expect(judge.source.length).toBeGreaterThan(10);
    },
  );

  it('document_recall is computed without a model from the retrieved and expected documents', () => {
    expect(findJudge('document_recall')).toMatchObject({
      kind: 'deterministic',
      scope: 'retrieval',
      assessment: 'case',
      inputs: ['retrieved_context', 'expected_retrieved_context'],
      scale: { type: 'score', min: 0, max: 1 },
    });
  });
});

describe.each(llmJudges.map((judge) => [judge.id, judge] as const))('LLM judge %s', (_id, judge) => {
  it('passes checkJudge: its templates use known placeholders and all its inputs', () => {
    expect(checkJudge(judge)).toEqual({ ok: true, value: undefined });
  });

  it('asks for the reasoning before every rating field of its JSON answer', () => {
    // Act
    const schema = z.toJSONSchema(judge.output) as JsonSchemaNode;

    // Assess
    const objects = ratedObjects(schema);
    expect(objects.length).toBeGreaterThan(0);
    for (const keys of objects) {
      const reasoning = keys.findIndex((key) => REASONING_FIELDS.includes(key));
      expect(reasoning, `reasoning field in ${keys.join(', ')}`).toBeGreaterThanOrEqual(0);
      for (const key of keys.filter((name) => RATING_FIELDS.includes(name))) expect(keys.indexOf(key)).toBeGreaterThan(reasoning);
    }
  });
});

describe('verdicts', () => {
  it.each<[string, unknown, number | string, number]>([
    ['chunk_relevance', { rationale: 'r', rating: 'yes' }, 'yes', 1],
    ['chunk_relevance', { rationale: 'r', rating: 'no' }, 'no', 0],
    // grade 0-3: value = grade / 3
    ['graded_relevance', { rationale: 'r', rating: 0 }, 0, 0],
    ['graded_relevance', { rationale: 'r', rating: 1 }, 1, 1 / 3],
    ['graded_relevance', { rationale: 'r', rating: 2 }, 2, 2 / 3],
    ['graded_relevance', { rationale: 'r', rating: 3 }, 3, 1],
    ['context_sufficiency', { rationale: 'r', rating: 'yes' }, 'yes', 1],
    ['correctness', { rationale: 'r', rating: 'no' }, 'no', 0],
    ['relevance_to_query', { rationale: 'r', rating: 'yes' }, 'yes', 1],
    ['groundedness', { rationale: 'r', rating: 'no' }, 'no', 0],
    ['safety', { rationale: 'r', rating: 'yes' }, 'yes', 1],
    ['fact_check', { rationale: 'r', rating: 'yes' }, 'yes', 1],
    ['relevancy', { rationale: 'r', rating: 'no' }, 'no', 0],
    ['answer_correctness', { rationale: 'r', rating: 'yes' }, 'yes', 1],
    ['answer_correctness', { rationale: 'r', rating: 'no' }, 'no', 0],
    ['answer_relevancy', { feedback: 'r', score: 1 }, 1, 1],
    ['answer_faithfulness', { feedback: 'r', score: 0.4 }, 0.4, 0.4],
    ['correctness_score', { rationale: 'r', rating: 0.25 }, 0.25, 0.25],
    ['response_relevancy', { rationale: 'r', rating: 1 }, 1, 1],
    ['faithfulness', { feedback: 'r', score: 0.4 }, 0.4, 0.4],
  ])('%s: %j gives rating %s and value %s', (id, answer, rating, value) => {
    // Act
    const verdict = verdictOf(id, answer);

    // Assess
    expect(verdict.rating).toBe(rating);
    expect(verdict.value).toBeCloseTo(value, 12);
    expect(verdict.rationale).toBe('r');
  });

  it('faithfulness takes its rationale from the feedback', () => {
    expect(verdictOf('faithfulness', { feedback: 'two of three claims supported', score: 0.67 }).rationale).toBe(
      'two of three claims supported',
    );
  });

  it.each([
    // 2 of 3 statements attributed: 2 / 3
    [['yes', 'no', 'yes'], 2 / 3, 2],
    [['yes'], 1, 1],
    [['no', 'no'], 0, 0],
  ] as const)('context_recall with statements %j is the attributed share %s', (attributions, recall, attributed) => {
    // Prepare
    const statements = attributions.map((answer, index) => ({ statement: `fact ${index}`, rationale: 'r', attributed: answer }));

    // Act
    const verdict = verdictOf('context_recall', { statements, rationale: 'summary' });

    // Assess
    expect(verdict).toEqual({
      rating: recall,
      value: recall,
      rationale: 'summary',
      details: { statements: attributions.length, attributed },
    });
  });

  it('context_recall with no statements is 0, not NaN, and says why', () => {
    // Act
    const verdict = verdictOf('context_recall', { statements: [], rationale: 'The expected response is empty.' });

    // Assess
    expect(verdict.rating).toBe(0);
    expect(verdict.value).toBe(0);
    expect(verdict.rationale).toMatch(/^No statements were taken from the expected response, so context recall is 0\./);
    expect(verdict.details).toEqual({ statements: 0, attributed: 0 });
  });

  it('context_recall is a finite share in [0, 1] for any list of statements', () => {
    const statement = fc.record({
      statement: fc.string(),
      rationale: fc.string(),
      attributed: fc.constantFrom('yes' as const, 'no' as const),
    });
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 30 }), fc.string(), (statements, rationale) => {
        const { value, rating } = contextRecall.verdict({ statements, rationale });
        return Number.isFinite(value) && value >= 0 && value <= 1 && rating === value;
      }),
    );
  });
});

describe('rubric', () => {
  it('weights correctness 0.6, comprehensiveness 0.2 and readability 0.2 by default', () => {
    // Act: 0.6 * 3 + 0.2 * 2 + 0.2 * 1 = 2.4 on the 0-3 scale; 2.4 / 3 = 0.8
    const verdict = verdictOf('rubric', { rationale: 'r', correctness: 3, comprehensiveness: 2, readability: 1 });

    // Assess
    expect(DEFAULT_RUBRIC_WEIGHTS).toEqual({ correctness: 0.6, comprehensiveness: 0.2, readability: 0.2 });
    expect(verdict.rating).toBeCloseTo(2.4, 12);
    expect(verdict.value).toBeCloseTo(0.8, 12);
    expect(verdict.details).toEqual({ correctness: 3, comprehensiveness: 2, readability: 1 });
  });

  it.each([
    // weights normalised to sum 1: {6, 2, 2} is the default {0.6, 0.2, 0.2}: 0.6 * 3 + 0.2 * 2 + 0.2 * 1 = 2.4
    [{ correctness: 6, comprehensiveness: 2, readability: 2 }, 2.4],
    // equal weights: (3 + 2 + 1) / 3 = 2
    [{ correctness: 1, comprehensiveness: 1, readability: 1 }, 2],
    // correctness alone: 3
    [{ correctness: 5, comprehensiveness: 0, readability: 0 }, 3],
    // readability alone: 1
    [{ correctness: 0, comprehensiveness: 0, readability: 0.1 }, 1],
  ])('rubricJudge(%j) grades 3/2/1 as %s', (weights, grade) => {
    // Act
    const verdict = rubricJudge(weights).verdict({ rationale: 'r', correctness: 3, comprehensiveness: 2, readability: 1 });

    // Assess
    expect(verdict.rating).toBeCloseTo(grade, 12);
    expect(verdict.value).toBeCloseTo(grade / 3, 12);
  });

  it.each([
    { correctness: -0.1, comprehensiveness: 1, readability: 1 },
    { correctness: 0, comprehensiveness: 0, readability: 0 },
    { correctness: Number.NaN, comprehensiveness: 1, readability: 1 },
    { correctness: Number.POSITIVE_INFINITY, comprehensiveness: 1, readability: 1 },
  ])('rejects the weights %j', (weights) => {
    expect(rubricWeightsSchema.safeParse(weights).success).toBe(false);
    expect(() => rubricJudge(weights)).toThrow(/Expected rubric weights to be non-negative numbers with a sum above 0/);
  });

  it('gives a finite value in [0, 1] for any valid weights and grades', () => {
    const weight = fc.double({ min: 0, max: 1000, noNaN: true });
    const grade = fc.integer({ min: 0, max: 3 });
    fc.assert(
      fc.property(
        weight,
        weight,
        weight,
        grade,
        grade,
        grade,
        (correctnessWeight, comprehensivenessWeight, readabilityWeight, correctness, comprehensiveness, readability) => {
          fc.pre(correctnessWeight + comprehensivenessWeight + readabilityWeight > 0);
          const judge = rubricJudge({
            correctness: correctnessWeight,
            comprehensiveness: comprehensivenessWeight,
            readability: readabilityWeight,
          });
          const { value } = judge.verdict({ rationale: 'r', correctness, comprehensiveness, readability });
          return Number.isFinite(value) && value >= -1e-12 && value <= 1 + 1e-12;
        },
      ),
    );
  });
});

describe('the judge catalog pages of docs/', () => {
  const readDocs = (page: string) => readFileSync(new URL(`../../../docs/${page}`, import.meta.url), 'utf8');
  const summary = readDocs('judges.md');

  it.each(llmJudges.map((judge) => [judge.id, judge] as const))(
    'quote the prompts of %s as the code has them, on the page judges.md links it to',
    (id, judge) => {
      // Prepare: judges.md's summary links each judge to its entry, `[`id`](page.md#id)`
      const page = new RegExp(`\\[\`${id}\`\\]\\(([a-z-]+\\.md)#${id}\\)`).exec(summary)?.[1];

      // Act
      const documentation = readDocs(page ?? 'judges.md');

      // Assess
      expect(page).toBeDefined();
      expect(documentation).toContain(`## \`${id}\``);
      expect(documentation).toContain(judge.systemTemplate);
      expect(documentation).toContain(judge.userTemplate);
    },
  );
});
