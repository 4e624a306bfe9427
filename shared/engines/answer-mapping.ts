import { compile, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';
import { z } from 'zod';
import type { ConnectorResult, EngineHit } from './engine.js';
import { permanent } from './engine-failure.js';

type CompiledExpression = ReturnType<typeof compile>;

/** A JMESPath expression compiled once, with its text kept for error messages. */
export interface AnswerExpression {
  readonly text: string;
  readonly node: CompiledExpression;
}

export type ExpressionCompilation = { ok: true; expression: AnswerExpression } | { ok: false; error: string };

export function compileExpression(text: string): ExpressionCompilation {
  try {
    return { ok: true, expression: { text, node: compile(text) } };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** An expression checked at config load; one that no longer compiles is a bug. */
export function checkedExpression(text: string): AnswerExpression {
  const compilation = compileExpression(text);
  if (!compilation.ok) throw new Error(`JMESPath expression "${text}" was not checked at config load: ${compilation.error}`);
  return compilation.expression;
}

/** A score may arrive as a number or as numeric text (Postgres `numeric`, some JSON APIs). */
export const scoreSchema = z.union([z.number().finite(), z.string().trim().regex(/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/).transform(Number)]);

/** One mapped hit: ids may be numbers (database keys); null means absent, as JSON APIs often write it. */
export const hitSchema = z.object({
  doc_uri: z.union([z.string().min(1), z.number().finite()]).transform(String),
  content: z.string().nullish(),
  score: scoreSchema.nullish(),
});

/** Drops the nulls a parsed hit may carry, so absent fields stay absent. */
export function hitFrom(parsed: z.infer<typeof hitSchema>): EngineHit {
  return {
    doc_uri: parsed.doc_uri,
    ...(parsed.content === null || parsed.content === undefined ? {} : { content: parsed.content }),
    ...(parsed.score === null || parsed.score === undefined ? {} : { score: parsed.score }),
  };
}

/** `item 2: doc_uri: expected a text or number`, naming the first problem of a list of hits. */
export function describeHitProblem(error: z.ZodError): string {
  const [issue] = error.issues;
  if (issue === undefined) return 'not a list of hits';
  const [index, field] = issue.path;
  const where = typeof index === 'number' ? `item ${index + 1}` : 'the list';
  const what = field === undefined ? '' : `${String(field)}: `;
  const expected = field === 'doc_uri' ? 'expected a non-empty text or a number' : field === 'score' ? 'expected a number' : field === 'content' ? 'expected a text' : 'expected an object {doc_uri, content?, score?}';
  return `${where}: ${what}${expected}`;
}

function evaluate(expression: AnswerExpression, answer: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
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
    return permanent(`results expression "${results.text}" gave ${shapeOf(mapped.value)}, expected a list of {doc_uri, content?, score?} (check the expression against the answer's shape)`);
  }
  const hits = z.array(hitSchema).safeParse(mapped.value);
  if (!hits.success) return permanent(`results expression "${results.text}" gave a list that is not hits: ${describeHitProblem(hits.error)}`);
  if (response === undefined) return { ok: true, hits: hits.data.map(hitFrom) };
  const text = evaluate(response, answer);
  if (!text.ok) return permanent(`response expression "${response.text}" failed on the answer: ${text.error}`);
  if (text.value !== null && typeof text.value !== 'string') {
    return permanent(`response expression "${response.text}" gave ${shapeOf(text.value)}, expected a text`);
  }
  return { ok: true, hits: hits.data.map(hitFrom), ...(text.value === null ? {} : { response: text.value }) };
}
