import type { BatchRequest } from '../schema/batch-request.js';
import type { JudgeCeiling } from '../run/judge-spend.js';
import { priceOf } from '../schema/judge-prices.js';
import type { WaitingCase } from './waiting-cases.js';

export interface CeilingSplit {
  /** The cases whose requests go out. */
  readonly within: readonly WaitingCase[];
  /** The cases judged without their LLM judges. */
  readonly over: readonly WaitingCase[];
  /** The estimated cost of the requests of `within` no earlier job holds. */
  readonly estimate: number;
}

/** The characters an input token is taken to be, as the rate governor takes it. */
const CHARACTERS_A_TOKEN = 4;

/**
 * `run.max_judge_cost` for a batch-judged run, checked before a job is
 * submitted, from the requests it would hold: each priced at the model's
 * batch price, its input at about four characters a token (as the rate
 * governor estimates it) and its output at the most it may be (the body's
 * max_tokens), so the estimate is near the truth for the input and above it
 * for the output. The round's waiting cases are taken in case id order while
 * their requests, added to what the run's earlier jobs were estimated at, stay
 * under the ceiling; the rest are evaluated without their LLM judges, as an
 * online run's cases past the ceiling are. Nothing is submitted that the
 * ceiling does not cover.
 */
export function splitAtCeiling(
  cases: readonly WaitingCase[],
  ceiling: JudgeCeiling,
  committed: number,
  answered: ReadonlySet<string>,
): CeilingSplit {
  const counted = new Set<string>(answered);
  const within: WaitingCase[] = [];
  const over: WaitingCase[] = [];
  let estimate = 0;
  for (const waiting of [...cases].sort((left, right) => (left.case_id < right.case_id ? -1 : left.case_id > right.case_id ? 1 : 0))) {
    const fresh = waiting.requests.filter((request) => !counted.has(request.id));
    const cost = fresh.reduce((sum, request) => sum + requestCost(request, ceiling), 0);
    if (committed + estimate + cost > ceiling.maxCost) {
      over.push(waiting);
      continue;
    }
    within.push(waiting);
    estimate += cost;
    for (const request of fresh) counted.add(request.id);
  }
  return { within, over, estimate };
}

/** A request at its model's batch price; a model without a price cannot be in a run with a ceiling (the config check). */
export function requestCost(request: BatchRequest, ceiling: JudgeCeiling): number {
  const price = Object.hasOwn(ceiling.prices.models, request.model) ? ceiling.prices.models[request.model] : undefined;
  if (price === undefined)
    throw new Error(`Model ${request.model} has no price, and run.max_judge_cost needs one for every model: the config was not checked`);
  const { input, output } = priceOf(price, 'batch');
  const { body } = request;
  // A chat body holds its system prompt among the messages; a Converse body (Bedrock) beside them, its answer's limit in inferenceConfig.
  const prompt = body.system === undefined ? body.messages : [body.system, body.messages];
  const inputTokens = Math.ceil(JSON.stringify(prompt ?? '').length / CHARACTERS_A_TOKEN);
  const inference = body.inferenceConfig as { maxTokens?: unknown } | undefined;
  const outputTokens = Number(body.max_tokens ?? body.max_completion_tokens ?? inference?.maxTokens ?? 0);
  return (inputTokens * input + outputTokens * output) / 1_000_000;
}
