import type { Result } from '../schema/result.js';
import { compile, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';
import { z } from 'zod';
import type { ConnectorResult } from './engine.js';
import { describeHitProblem, hitFrom, hitSchema } from './engine-hit.js';
import { permanent } from './engine-failure.js';

type CompiledExpression = ReturnType<typeof compile>;

/** A JMESPath expression compiled once, with its text kept for error messages. */
export interface AnswerExpression {
  readonly text: string;
  readonly node: CompiledExpression;
}

export type ExpressionCompilation = Result<AnswerExpression>;

export function compileExpression(text: string): ExpressionCompilation {
  try {
    return { ok: true, value: { text, node: compile(text) } };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** An expression checked at config load; one that no longer compiles is a bug. */
export function checkedExpression(text: string): AnswerExpression {
  const compilation = compileExpression(text);
  if (!compilation.ok) throw new Error(`JMESPath expression "${text}" was not checked at config load: ${compilation.error}`);
  return compilation.value;
}

function evaluate(expression: AnswerExpression, answer: unknown): Result<unknown> {
  try {
    return { ok: true, value: TreeInterpreter.search(expression.node, answer as JSONValue) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function shapeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Maps a parsed JSON answer to hits (and a response) with the engine's
 * `results` and `response` expressions. An answer they cannot map is a
 * permanent failure: asking the same service again gives the same shape.
 */
export function mapAnswer(answer: unknown, results: AnswerExpression, response: AnswerExpression | undefined): ConnectorResult {
  const mapped = evaluate(results, answer);
  if (!mapped.ok) return permanent(`results expression "${results.text}" failed on the answer: ${mapped.error}`);
  if (!Array.isArray(mapped.value)) {
    return permanent(
      `results expression "${results.text}" gave ${shapeOf(mapped.value)}, expected a list of {doc_uri, content?, score?} (check the expression against the answer's shape)`,
    );
  }
  const hits = z.array(hitSchema).safeParse(mapped.value);
  if (!hits.success)
    return permanent(`results expression "${results.text}" gave a list that is not hits: ${describeHitProblem(hits.error)}`);
  if (response === undefined) return { ok: true, value: { hits: hits.data.map(hitFrom) } };
  const text = evaluate(response, answer);
  if (!text.ok) return permanent(`response expression "${response.text}" failed on the answer: ${text.error}`);
  if (text.value !== null && typeof text.value !== 'string') {
    return permanent(`response expression "${response.text}" gave ${shapeOf(text.value)}, expected a text`);
  }
  return { ok: true, value: { hits: hits.data.map(hitFrom), ...(text.value === null ? {} : { response: text.value }) } };
}
