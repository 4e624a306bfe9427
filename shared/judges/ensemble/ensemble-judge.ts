import type { FieldProblem } from '../../schema/field-problem.js';
import type { Result } from '../../schema/result.js';
import { z } from 'zod';
import type { JudgeHeader } from '../judge-header.js';
import { describeScale } from '../scale.js';

/**
 * An ensemble combines the verdicts several judges give on the same item
 * (a chunk, or an engine's response or context): a majority vote for yes/no
 * judges, the mean or the median for graded and scored ones. Its metrics
 * have the shape a single judge of that kind would have, under the
 * ensemble's id, plus how far its members were apart.
 */
export const ensembleSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'Expected lower-case letters, digits and underscores, starting with a letter'),
  description: z.string().min(1).optional(),
  members: z.array(z.string().min(1)).min(2),
  combine: z.enum(['majority', 'mean', 'median']),
});
export type EnsembleDefinition = z.infer<typeof ensembleSchema>;
export type CombineRule = EnsembleDefinition['combine'];

export interface EnsembleJudge extends JudgeHeader {
  readonly kind: 'ensemble';
  /** Ids of the member judges, as the run lists them (variants included). */
  readonly members: readonly string[];
  readonly combine: CombineRule;
}

/** What an ensemble checks of its members: any judge definition. */
type Member = JudgeHeader & { readonly kind: string };

/** Checks that the members judge the same items on the same scale, and that the rule fits the scale. */
export function buildEnsemble(definition: EnsembleDefinition, members: readonly Member[]): Result<EnsembleJudge, FieldProblem> {
  const failure = (field: string, problem: string, fix: string): Result<EnsembleJudge, FieldProblem> => ({
    ok: false,
    error: { field, problem, fix },
  });
  const ids = members.map((member) => member.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice !== undefined)
    return failure(
      'members',
      `"${twice}" is listed twice`,
      'list each member once; use a variant such as graded_relevance@gpt-4o for another model',
    );
  const unsupported = members.find((member) => member.kind !== 'llm' && member.kind !== 'dag');
  if (unsupported !== undefined)
    return failure(
      'members',
      `"${unsupported.id}" is a ${unsupported.kind} judge, which has no verdict to combine`,
      'use LLM, custom or decision-tree judges as members',
    );
  const [first] = members as [Member, ...Member[]];
  const mismatch = members.find((member) => itemOf(member) !== itemOf(first) || member.scope !== first.scope);
  if (mismatch !== undefined) {
    return failure(
      'members',
      `"${mismatch.id}" judges ${itemOf(mismatch)} but "${first.id}" judges ${itemOf(first)}`,
      'combine judges of the same items: all chunk judges, or all response judges, or all context judges',
    );
  }
  const otherScale = members.find((member) => JSON.stringify(member.scale) !== JSON.stringify(first.scale));
  if (otherScale !== undefined) {
    return failure(
      'members',
      `"${otherScale.id}" rates on ${describeScale(otherScale.scale)} but "${first.id}" on ${describeScale(first.scale)}`,
      'combine judges of the same scale',
    );
  }
  const yesNo = first.scale.type === 'yes_no';
  if (yesNo !== (definition.combine === 'majority')) {
    return failure(
      'combine',
      `"${definition.combine}" does not fit ${describeScale(first.scale)} verdicts`,
      yesNo ? 'use majority for yes/no judges' : 'use mean or median for graded and scored judges',
    );
  }
  return {
    ok: true,
    value: {
      kind: 'ensemble',
      id: definition.id,
      version: '1',
      description: definition.description ?? `${definition.combine} of ${ids.join(', ')}`,
      scope: first.scope,
      assessment: first.assessment,
      inputs: [...new Set(members.flatMap((member) => member.inputs))],
      scale: first.scale,
      source: 'ensemble from the config file',
      members: ids,
      combine: definition.combine,
    },
  };
}

function itemOf(judge: Member): string {
  return judge.assessment === 'chunk' ? 'each chunk' : judge.assessment === 'response' ? 'each response' : 'each retrieved context';
}
