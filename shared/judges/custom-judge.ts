import { z } from 'zod';
import { JUDGE_CATALOG } from './catalog/index.js';
import { checkJudge, ratingOutput, ratingVerdict, type LlmJudge } from './judge-definition.js';
import { GRADE_0_3, LIKERT_1_5, ratingValue, SCORE_0_1, YES_NO, type Rating, type Scale } from './scale.js';
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
 * judges use: ANSWER judges one engine's response, RETRIEVAL one engine's
 * whole retrieved context. Per-chunk custom judges are not offered: their
 * derived metrics (precision, NDCG) depend on the scale meaning relevance.
 */
const ASSESSMENTS = {
  ANSWER: { scope: 'response', assessment: 'response' },
  RETRIEVAL: { scope: 'retrieval', assessment: 'case' },
} as const;

/** One custom judge as written in the config file. */
export const customJudgeSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'Expected lower-case letters, digits and underscores, starting with a letter'),
  description: z.string().min(1).optional(),
  assessment: z.enum(['ANSWER', 'RETRIEVAL']),
  template: z.string().min(1),
  scale: z.enum(Object.keys(CUSTOM_SCALES) as [CustomScaleName, ...CustomScaleName[]]),
  version: z.string().min(1).optional(),
});
export type CustomJudgeDefinition = z.infer<typeof customJudgeSchema>;

export type CustomJudgeBuild =
  | { ok: true; judge: LlmJudge<{ rationale: string; rating: Rating }> }
  /** `error` names the judge, the field, the problem and its fix; the parts are there for callers that word them their own way. */
  | { ok: false; field: string; problem: string; fix: string; error: string };

/** What the judge server needs to know about each scale; braces are doubled because this is a template. */
const SCALE_INSTRUCTIONS: Readonly<Record<CustomScaleName, string>> = {
  yes_no: '"rating" is "yes" or "no"',
  grade_0_3: '"rating" is an integer grade from 0 to 3: 0 none, 1 weak, 2 medium, 3 strong',
  likert_1_5: '"rating" is an integer from 1 (worst) to 5 (best)',
  score_0_1: '"rating" is a number from 0 (worst) to 1 (best)',
};

/** Inputs the runner fills for response and case judges; {chunk} exists only per chunk. */
const CUSTOM_INPUTS: readonly TemplateInput[] = ['request', 'response', 'context', 'expected_response', 'expected_facts'];

const PLACEHOLDER_LIST = CUSTOM_INPUTS.map((input) => `{${input}}`).join(', ');

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
    field,
    problem,
    fix,
    error: `custom judge "${definition.id}", field "${field}": ${problem} (fix: ${fix})`,
  });
  if (reservedIds.has(definition.id)) {
    return failure('id', `"${definition.id}" is already the id of a built-in judge`, 'choose an id that no built-in judge uses; `assay judges` lists them');
  }
  const used = placeholdersOf(definition.template);
  if (used.includes('chunk')) {
    return failure('template', '{chunk} is only filled for per-chunk judges', 'custom judges see the whole retrieved context: write {context}');
  }
  const scale = CUSTOM_SCALES[definition.scale];
  const { scope, assessment } = ASSESSMENTS[definition.assessment];
  const judge: LlmJudge<{ rationale: string; rating: Rating }> = {
    kind: 'llm',
    id: definition.id,
    version: definition.version ?? '1',
    description: definition.description ?? `Custom ${definition.assessment.toLowerCase()} judge on a ${definition.scale} scale.`,
    scope,
    assessment,
    inputs: CUSTOM_INPUTS.filter((input) => used.includes(input)),
    scale,
    systemTemplate: systemPromptFor(definition.scale),
    userTemplate: definition.template,
    output: ratingOutput(scale),
    verdict: ratingVerdict(scale, (rating) => ratingValue(scale, rating)),
    source: 'custom judge from the config file',
  };
  const check = checkJudge(judge);
  if (!check.ok) return failure('template', check.error.replace(`judge ${definition.id}: `, ''), `use only ${PLACEHOLDER_LIST}`);
  if (judge.inputs.length === 0) {
    return failure('template', 'the template uses no placeholder, so every case would get the same prompt', `use some of ${PLACEHOLDER_LIST}`);
  }
  return { ok: true, judge };
}
