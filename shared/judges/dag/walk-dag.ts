import { z } from 'zod';
import type { LlmJudge } from '../judge-definition.js';
import type { JudgmentOutcome } from '../judgment-outcome.js';
import { YES_NO } from '../scale.js';
import type { TemplateInput } from '../template.js';
import type { DagInput, DagNode } from './dag-config.js';
import type { DagJudge } from './dag-judge.js';

/** Asks the judge server one node's question: the runner's own call, so every node is cached and counted like any judgment. */
export type AskNode = (judge: LlmJudge, inputs: Partial<Record<TemplateInput, string>>) => Promise<JudgmentOutcome>;

const INPUT_TITLES: Readonly<Record<DagInput, string>> = {
  request: 'Request',
  response: 'Response',
  context: 'Retrieved context',
  expected_response: 'Expected response',
  expected_facts: 'Expected facts',
};

/**
 * Walks a decision-tree judge for one item: from the root, one LLM call per
 * node visited, each a judgment of its own (cached under the node's prompt),
 * until a verdict leaf gives the score. The rating is the score over the
 * judge's max_score (0 to 1), `details.score` the score itself, and the
 * rationale the path taken with each node's answer and reasoning.
 */
export async function walkDag(judge: DagJudge, inputs: Partial<Record<TemplateInput, string>>, ask: AskNode): Promise<JudgmentOutcome> {
  const found: { label: string; text: string }[] = [];
  const steps: string[] = [];
  let name = judge.root;
  // The tree was checked to be acyclic, so the walk visits each node at most once.
  for (let visited = 0; visited <= Object.keys(judge.nodes).length; visited++) {
    const node = judge.nodes[name] as DagNode;
    if ('verdict' in node) {
      steps.push(`${name}: score ${node.verdict} of ${judge.maxScore}`);
      const value = Math.min(1, Math.max(0, node.verdict / judge.maxScore));
      return { ok: true, value: { rating: value, value, rationale: steps.join(' -> '), details: { score: node.verdict } } };
    }
    const step = nodeJudge(judge, name, node, found);
    const outcome = await ask(step.judge, inputs);
    if (!outcome.ok) return { ok: false, error: { message: `node ${name}: ${outcome.error.message}`, transient: outcome.error.transient } };
    const answer = step.answer();
    if ('task' in node) {
      found.push({ label: node.label, text: answer });
      steps.push(`${name}: ${node.label} = ${JSON.stringify(answer)}`);
      name = node.next;
    } else if ('binary' in node) {
      steps.push(`${name}: ${answer} (${outcome.value.rationale})`);
      name = answer === 'yes' ? node.yes : node.no;
    } else {
      steps.push(`${name}: ${JSON.stringify(answer)} (${outcome.value.rationale})`);
      name = node.options[answer] as string;
    }
  }
  throw new Error(`The decision tree of judge ${judge.id} did not end at a verdict: it was not checked`);
}

/** One node as a judgment: its prompt, its answer's schema, and what it answered once asked. */
function nodeJudge(
  judge: DagJudge,
  name: string,
  node: Exclude<DagNode, { verdict: number }>,
  found: readonly { label: string; text: string }[],
) {
  let answer: string | undefined;
  const { instruction, field, rule, output } = shapeOf(node);
  const sections = [
    ...node.inputs.map((input) => `${INPUT_TITLES[input]}:\n{${input}}`),
    ...found.map(({ label, text }) => `${label}:\n${literal(text)}`),
  ];
  const llmJudge: LlmJudge<{ rationale: string } & Record<string, string>> = {
    kind: 'llm',
    id: judge.id,
    ...(judge.promptId === undefined ? {} : { promptId: judge.promptId }),
    // Each node is its own judgment in the cache: the node's name is part of its version.
    version: `${judge.version}/${name}`,
    description: `${judge.id}, node ${name}`,
    scope: judge.scope,
    assessment: judge.assessment,
    inputs: node.inputs,
    scale: YES_NO,
    systemTemplate:
      'You are one step of a decision tree that evaluates a search and question-answering system. ' +
      'Do only what this step asks. Think it through first and write your reasoning in "rationale"; ' +
      `then give "${field}", where ${rule}. Reply with one JSON object and nothing else.`,
    userTemplate: [literal(instruction), ...sections].join('\n\n'),
    output: output as z.ZodType<{ rationale: string } & Record<string, string>>,
    verdict: (value) => {
      answer = value[field];
      return { rating: 'yes', value: 1, rationale: value.rationale };
    },
    source: judge.source,
  };
  return {
    judge: llmJudge,
    answer: (): string => {
      if (answer === undefined) throw new Error(`Node ${name} of judge ${judge.id} gave a verdict without its answer`);
      return answer;
    },
  };
}

function shapeOf(node: Exclude<DagNode, { verdict: number }>): { instruction: string; field: string; rule: string; output: z.ZodType } {
  const rationale = z.string().describe('step-by-step reasoning, written before the answer');
  if ('task' in node) {
    return {
      instruction: node.task,
      field: 'output',
      rule: `"output" is the ${node.label} as text`,
      output: z.object({ rationale, output: z.string() }),
    };
  }
  if ('binary' in node) {
    return {
      instruction: node.binary,
      field: 'verdict',
      rule: '"verdict" is "yes" or "no"',
      output: z.object({ rationale, verdict: z.enum(['yes', 'no']) }),
    };
  }
  const options = Object.keys(node.options) as [string, ...string[]];
  return {
    instruction: node.non_binary,
    field: 'verdict',
    rule: `"verdict" is exactly one of ${options.map((option) => JSON.stringify(option)).join(', ')}`,
    output: z.object({ rationale, verdict: z.enum(options) }),
  };
}

/** Text shown as it is in a prompt template, where braces are placeholders unless doubled. */
function literal(text: string): string {
  return text.replace(/[{}]/g, (brace) => brace + brace);
}
