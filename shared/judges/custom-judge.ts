import type { FieldProblem } from '../schema/field-problem.js';
import type { Result } from '../schema/result.js';
import { z } from 'zod';
import { JUDGE_CATALOG } from './catalog/index.js';
import { checkExamples, customJudgeExampleSchema, examplesSection } from './custom-judge-examples.js';
import { judgeOverridesShape } from '../judge-client/judge-overrides.js';
import { checkJudge, ratingOutput, ratingVerdict, type LlmJudge } from './judge-definition.js';
import { GRADE_0_3, LIKERT_1_5, SCORE_0_1, YES_NO, type Rating, type Scale } from './scale.js';
import { placeholdersOf, type TemplateInput } from './template.js';

/** Scales a custom judge can name, as written in the config file. */
export const CUSTOM_SCALES = {
  yes_no: YES_NO,
  grade_0_3: GRADE_0_3,
  likert_1_5: LIKERT_1_5,
  score_0_1: SCORE_0_1,
} as const satisfies Record<string, Scale>;
export type CustomScaleName = keyof typeof CUSTOM_SCALES;

/**
 * The assessments a custom judge can name, in the words Databricks' custom
 * judges use: ANSWER judges one engine's response, RETRIEVAL each retrieved
 * chunk (pooled across engines, as chunk_relevance is), which yields per-chunk
 * ratings and, on a yes/no scale, the precision of the retrieved list.
 */
const ASSESSMENTS = {
  ANSWER: { scope: 'response', assessment: 'response' },
  RETRIEVAL: { scope: 'retrieval', assessment: 'chunk' },
} as const;

/** One custom judge as written in the config file. */
export const customJudgeSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'Expected lower-case letters, digits and underscores, starting with a letter'),
  description: z.string().min(1).optional(),
  assessment: z.enum(['ANSWER', 'RETRIEVAL']),
  template: z.string().min(1),
  scale: z.enum(Object.keys(CUSTOM_SCALES) as [CustomScaleName, ...CustomScaleName[]]),
  version: z.string().min(1).optional(),
  /** Few-shot examples shown in the system prompt: best one per grade. */
  examples: z.array(customJudgeExampleSchema).optional(),
  ...judgeOverridesShape,
});
export type CustomJudgeDefinition = z.infer<typeof customJudgeSchema>;

/** A custom judge that does not build: `message` names the judge, the field, the problem and its fix; the parts are there for callers that word them their own way. */
export interface CustomJudgeProblem extends FieldProblem {
  readonly message: string;
}

export type CustomJudgeBuild = Result<LlmJudge<{ rationale: string; rating: Rating }>, CustomJudgeProblem>;

/** What the judge server needs to know about each scale; braces are doubled because this is a template. */
const SCALE_INSTRUCTIONS: Readonly<Record<CustomScaleName, string>> = {
  yes_no: '"rating" is "yes" or "no"',
  grade_0_3: '"rating" is an integer grade from 0 to 3: 0 none, 1 weak, 2 medium, 3 strong',
  likert_1_5: '"rating" is an integer from 1 (worst) to 5 (best)',
  score_0_1: '"rating" is a number from 0 (worst) to 1 (best)',
};

/** Inputs the runner fills: an answer judge sees one engine's output, a retrieval judge one chunk and the case's own fields. */
const CUSTOM_INPUTS: Readonly<Record<keyof typeof ASSESSMENTS, readonly TemplateInput[]>> = {
  ANSWER: ['request', 'response', 'context', 'expected_response', 'expected_facts'],
  RETRIEVAL: ['request', 'chunk', 'expected_response', 'expected_facts'],
};

const placeholderList = (inputs: readonly TemplateInput[]) => inputs.map((input) => `{${input}}`).join(', ');

function systemPromptFor(scale: CustomScaleName): string {
  return (
    'You are an impartial evaluator of a search and question-answering system. ' +
    'Follow the instructions in the user message and judge only what they ask. ' +
    `Think it through first and write your reasoning in "rationale"; then give "rating", where ${SCALE_INSTRUCTIONS[scale]}. ` +
    'Reply with one JSON object {{"rationale": "...", "rating": ...}} and nothing else.'
  );
}

/**
 * Turns a custom judge from the config file into an LlmJudge. Its inputs are
 * the placeholders its template uses, so a case lacking one of them is
 * skipped with the reason instead of being judged on an empty slot.
 * `reservedIds` are ids already taken (the catalog's by default).
 */
export function buildCustomJudge(
  definition: CustomJudgeDefinition,
  reservedIds: ReadonlySet<string> = new Set(JUDGE_CATALOG.map((judge) => judge.id)),
): CustomJudgeBuild {
  const failure = (field: string, problem: string, fix: string): CustomJudgeBuild => ({
    ok: false,
    error: { field, problem, fix, message: `custom judge "${definition.id}", field "${field}": ${problem} (fix: ${fix})` },
  });
  if (reservedIds.has(definition.id)) {
    return failure(
      'id',
      `"${definition.id}" is already the id of a built-in judge`,
      'choose an id that no built-in judge uses; `assay judges` lists them',
    );
  }
  const used = placeholdersOf(definition.template);
  const allowed = CUSTOM_INPUTS[definition.assessment];
  if (definition.assessment === 'ANSWER' && used.includes('chunk')) {
    return failure(
      'template',
      '{chunk} is only filled for RETRIEVAL judges, which judge each retrieved chunk',
      'write {context} for the whole retrieved context, or make it a RETRIEVAL judge',
    );
  }
  if (definition.assessment === 'RETRIEVAL') {
    const wrong = used.filter((name) => name === 'context' || name === 'response');
    if (wrong.length > 0) {
      return failure(
        'template',
        `${placeholderList(wrong as TemplateInput[])} is not filled for RETRIEVAL judges, which judge each retrieved chunk on its own`,
        'write {chunk} for the chunk being judged, or make it an ANSWER judge',
      );
    }
    if (!used.includes('chunk')) {
      return failure(
        'template',
        'a RETRIEVAL judge judges each retrieved chunk, but the template never shows it',
        'add {chunk} to the template',
      );
    }
  }
  const scale = CUSTOM_SCALES[definition.scale];
  const { scope, assessment } = ASSESSMENTS[definition.assessment];
  const inputs = allowed.filter((input) => used.includes(input));
  const examples = definition.examples ?? [];
  const exampleCheck = checkExamples(examples, scale, inputs);
  if (!exampleCheck.ok) {
    const { index, field, problem, fix } = exampleCheck.error;
    return failure(`examples[${index}].${field}`, problem, fix);
  }
  const judge: LlmJudge<{ rationale: string; rating: Rating }> = {
    kind: 'llm',
    id: definition.id,
    version: definition.version ?? '1',
    description: definition.description ?? `Custom ${definition.assessment.toLowerCase()} judge on a ${definition.scale} scale.`,
    scope,
    assessment,
    inputs,
    scale,
    systemTemplate: systemPromptFor(definition.scale) + examplesSection(examples),
    userTemplate: definition.template,
    output: ratingOutput(scale),
    verdict: ratingVerdict(scale),
    source: 'custom judge from the config file',
  };
  const check = checkJudge(judge);
  if (!check.ok) return failure('template', check.error.replace(`judge ${definition.id}: `, ''), `use only ${placeholderList(allowed)}`);
  if (judge.inputs.length === 0) {
    return failure(
      'template',
      'the template uses no placeholder, so every case would get the same prompt',
      `use some of ${placeholderList(allowed)}`,
    );
  }
  return { ok: true, value: judge };
}
