import { z } from 'zod';
import { judgeOverridesShape } from '../../judge-client/judge-overrides.js';

/**
 * A decision-tree judge as written in the config file (`dag_judges:`), after
 * DeepEval's DAG metric: named nodes, each one LLM call except the verdict
 * leaves. A task node extracts something from the case's inputs and hands it,
 * under its label, to the nodes after it; a binary node asks a yes/no
 * question and follows `yes` or `no`; a non-binary node asks a question whose
 * answer is one of its `options`, each naming the next node; a verdict leaf
 * ends the walk with a score.
 */

/** The case inputs a node may show the judge. */
export const DAG_INPUTS = ['request', 'response', 'context', 'expected_response', 'expected_facts'] as const;
export type DagInput = (typeof DAG_INPUTS)[number];

const nodeName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'Expected lower-case letters, digits and underscores, starting with a letter');
const inputs = z.array(z.enum(DAG_INPUTS)).default([]);

export const taskNodeSchema = z.strictObject({
  task: z.string().min(1),
  /** What the extracted text is called in the prompts of the nodes after it. */
  label: z.string().min(1),
  inputs,
  next: nodeName,
});
export const binaryNodeSchema = z.strictObject({ binary: z.string().min(1), inputs, yes: nodeName, no: nodeName });
export const nonBinaryNodeSchema = z.strictObject({
  non_binary: z.string().min(1),
  inputs,
  /** Each answer the judge may give, and the node it leads to. */
  options: z.record(z.string().min(1), nodeName).refine((options) => Object.keys(options).length >= 2, 'give at least two options'),
});
export const verdictNodeSchema = z.strictObject({ verdict: z.number().finite() });

export const dagNodeSchema = z.union([taskNodeSchema, binaryNodeSchema, nonBinaryNodeSchema, verdictNodeSchema]);
export type DagNode = z.infer<typeof dagNodeSchema>;

export const dagJudgeSchema = z.strictObject({
  id: nodeName,
  description: z.string().min(1).optional(),
  /** ANSWER: one walk per engine's response; RETRIEVAL: one walk per engine's retrieved context. */
  assessment: z.enum(['ANSWER', 'RETRIEVAL']),
  version: z.string().min(1).optional(),
  root: nodeName,
  nodes: z.record(nodeName, dagNodeSchema),
  /** The score that means "best", for the 0-1 rating; the highest verdict when absent. */
  max_score: z.number().positive().optional(),
  ...judgeOverridesShape,
});
export type DagJudgeDefinition = z.infer<typeof dagJudgeSchema>;

export type DagNodeKind = 'task' | 'binary' | 'non_binary' | 'verdict';

export function kindOf(node: DagNode): DagNodeKind {
  if ('task' in node) return 'task';
  if ('binary' in node) return 'binary';
  if ('non_binary' in node) return 'non_binary';
  return 'verdict';
}

/** The nodes a node leads to, in the order written. */
export function childrenOf(node: DagNode): string[] {
  if ('task' in node) return [node.next];
  if ('binary' in node) return [node.yes, node.no];
  if ('non_binary' in node) return Object.values(node.options);
  return [];
}
