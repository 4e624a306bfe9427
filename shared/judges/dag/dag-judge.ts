import type { FieldProblem } from '../../schema/field-problem.js';
import type { Result } from '../../schema/result.js';
import { SCORE_0_1, type Scale } from '../scale.js';
import type { JudgeHeader } from '../judge-header.js';
import type { ClientOverrides } from '../../judge-client/judge-overrides.js';
import { childrenOf, kindOf, type DagInput, type DagJudgeDefinition, type DagNode } from './dag-config.js';

/** A decision-tree judge, checked and ready to walk (walk-dag.ts). */
export interface DagJudge extends JudgeHeader<DagInput> {
  readonly kind: 'dag';
  readonly scope: 'response' | 'retrieval';
  readonly assessment: 'response' | 'case';
  /** The rating is the verdict's score over max_score, from 0 to 1. */
  readonly scale: Scale;
  readonly root: string;
  readonly nodes: Readonly<Record<string, DagNode>>;
  readonly maxScore: number;
  /** As on LlmJudge: the tree whose nodes a model variant asks, its client settings, and samples per item. */
  readonly promptId?: string;
  readonly client?: ClientOverrides;
  readonly repeat?: number;
}

/**
 * Checks a decision tree from the config file and builds its judge: the root
 * and every node a node leads to exist, the root is not a verdict, no walk
 * can come back to a node it passed (so every walk ends at a verdict), and
 * every node can be reached from the root.
 */
export function buildDagJudge(definition: DagJudgeDefinition): Result<DagJudge, FieldProblem> {
  const failure = (field: string, problem: string, fix: string): Result<DagJudge, FieldProblem> => ({
    ok: false,
    error: { field, problem, fix },
  });
  const nodes = definition.nodes;
  const has = (name: string) => Object.hasOwn(nodes, name);
  if (!has(definition.root))
    return failure('root', `no node is named "${definition.root}"`, `name one of ${Object.keys(nodes).join(', ')}`);
  const root = nodes[definition.root] as DagNode;
  if (kindOf(root) === 'verdict')
    return failure('root', 'the root is a verdict, so no question would be asked', 'start the tree at a task, binary or non_binary node');
  for (const [name, node] of Object.entries(nodes)) {
    for (const child of childrenOf(node)) {
      if (!has(child))
        return failure(`nodes.${name}`, `leads to "${child}", which is not a node`, 'name an existing node, or add it under nodes');
    }
  }
  const cycle = findCycle(definition.root, nodes);
  if (cycle !== undefined)
    return failure('nodes', `the walk can come back to a node: ${cycle.join(' -> ')}`, 'make every path end at a verdict node');
  const reached = reachable(definition.root, nodes);
  const unreached = Object.keys(nodes).filter((name) => !reached.has(name));
  if (unreached.length > 0)
    return failure('nodes', `${unreached.join(', ')} can never be reached from the root`, 'link them from another node, or remove them');
  const scores = Object.values(nodes).flatMap((node) => ('verdict' in node ? [node.verdict] : []));
  const maxScore = definition.max_score ?? Math.max(...scores);
  if (!(maxScore > 0))
    return failure('max_score', 'no verdict scores above 0, so the rating has no scale', 'give max_score, or a verdict above 0');
  const used = new Set(Object.values(nodes).flatMap((node) => ('inputs' in node ? node.inputs : [])));
  return {
    ok: true,
    value: {
      kind: 'dag',
      id: definition.id,
      version: definition.version ?? '1',
      description:
        definition.description ?? `Decision-tree ${definition.assessment.toLowerCase()} judge of ${Object.keys(nodes).length} nodes.`,
      scope: definition.assessment === 'ANSWER' ? 'response' : 'retrieval',
      assessment: definition.assessment === 'ANSWER' ? 'response' : 'case',
      inputs: [...used],
      scale: SCORE_0_1,
      root: definition.root,
      nodes,
      maxScore,
      source: 'decision-tree judge from the config file (after DeepEval DAG)',
    },
  };
}

function findCycle(root: string, nodes: Readonly<Record<string, DagNode>>): string[] | undefined {
  const done = new Set<string>();
  const visit = (name: string, path: string[]): string[] | undefined => {
    if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
    if (done.has(name)) return undefined;
    for (const child of childrenOf(nodes[name] as DagNode)) {
      const cycle = visit(child, [...path, name]);
      if (cycle !== undefined) return cycle;
    }
    done.add(name);
    return undefined;
  };
  return visit(root, []);
}

function reachable(root: string, nodes: Readonly<Record<string, DagNode>>): Set<string> {
  const seen = new Set<string>([root]);
  const queue = [root];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const child of childrenOf(nodes[name] as DagNode)) {
      if (!seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return seen;
}
