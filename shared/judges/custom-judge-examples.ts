import { z } from 'zod';
import type { FieldProblem } from '../schema/field-problem.js';
import type { Result } from '../schema/result.js';
import { ratingSchema, type Scale } from './scale.js';
import type { TemplateInput } from './template.js';

/**
 * Few-shot examples of a custom judge: judged items with the rating and the
 * reasoning the judge should have given, shown in its system prompt. The
 * evaluation guide this follows gives one example per grade of the scale,
 * so the judge sees where each grade begins.
 */
export const customJudgeExampleSchema = z.strictObject({
  request: z.string().optional(),
  response: z.string().optional(),
  context: z.string().optional(),
  chunk: z.string().optional(),
  expected_response: z.string().optional(),
  expected_facts: z.string().optional(),
  rating: z.union([z.string().min(1), z.number()]),
  rationale: z.string().min(1),
});
export type CustomJudgeExample = z.infer<typeof customJudgeExampleSchema>;

const TITLES: Readonly<Record<TemplateInput, string>> = {
  request: 'Request',
  response: 'Response',
  context: 'Retrieved context',
  chunk: 'Retrieved chunk',
  expected_response: 'Expected response',
  expected_facts: 'Expected facts',
};
const ORDER = Object.keys(TITLES) as TemplateInput[];

/** An example that does not fit the judge: its position in `examples`, and the field of the example at fault. */
export interface ExampleProblem extends FieldProblem {
  readonly index: number;
}

/** Each example gives a rating of the scale and only inputs the judge's template uses. */
export function checkExamples(
  examples: readonly CustomJudgeExample[],
  scale: Scale,
  inputs: readonly TemplateInput[],
): Result<undefined, ExampleProblem> {
  for (const [index, example] of examples.entries()) {
    if (!ratingSchema(scale).safeParse(example.rating).success) {
      return {
        ok: false,
        error: {
          index,
          field: 'rating',
          problem: `${JSON.stringify(example.rating)} is not a rating of the judge's scale`,
          fix: 'give a rating the judge itself could answer, e.g. "yes" or 2',
        },
      };
    }
    const unused = ORDER.filter((input) => example[input] !== undefined && !inputs.includes(input));
    if (unused.length > 0) {
      return {
        ok: false,
        error: {
          index,
          field: unused[0] as string,
          problem: 'the template has no such placeholder, so the judge never sees it',
          fix: `give only the inputs the template uses: ${inputs.join(', ')}`,
        },
      };
    }
  }
  return { ok: true, value: undefined };
}

/** The examples as a prompt section, braces doubled because the result is a template; empty without examples. */
export function examplesSection(examples: readonly CustomJudgeExample[]): string {
  if (examples.length === 0) return '';
  const blocks = examples.map((example, index) => {
    const lines = ORDER.flatMap((input) => (example[input] === undefined ? [] : [`${TITLES[input]}: ${example[input]}`]));
    return [`Example ${index + 1}`, ...lines, `Rationale: ${example.rationale}`, `Rating: ${String(example.rating)}`].join('\n');
  });
  const text = `\n\nExamples of judged items, with the rating they deserve:\n\n${blocks.join('\n\n')}`;
  return text.replace(/\{/g, '{{').replace(/\}/g, '}}');
}
