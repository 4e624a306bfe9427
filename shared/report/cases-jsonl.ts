import { expandRanking, type CompactRanking } from '../schema/compact-ranking.js';
import type { CaseLine } from '../schema/report.js';
import type { CaseResult } from '../schema/run-records.js';
import { compareText, sortedKeys, sortedRecord } from './ordering.js';

/**
 * `cases.jsonl`: one line per (case, engine) with every metric of that engine
 * on that case, ratings, rationales, error messages and per-chunk lists
 * included, and the engine's ranked list (doc_uri, rank, score) and response
 * where the result kept them, and `judging_skipped` on the cases whose LLM
 * judges were skipped at the run's cost ceiling. Lines are sorted by case id, then engine; metric keys are sorted;
 * the text ends with a newline unless there is no line at all.
 */
export function casesJsonl(results: readonly CaseResult[]): string {
  return caseLines(results)
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}

/**
 * The lines of `cases.jsonl` as values, in file order; without `lists`, the
 * lines without their ranked lists (what report.html and a baseline
 * comparison read).
 */
export function caseLines(results: readonly CaseResult[], lists = true): CaseLine[] {
  const sorted = [...results].sort((left, right) => compareText(left.case_id, right.case_id));
  return sorted.flatMap((result) =>
    sortedKeys(result.engines).map((engine) => {
      const output = result.outputs !== undefined && Object.hasOwn(result.outputs, engine) ? result.outputs[engine] : undefined;
      const listed =
        output === undefined || !lists ? {} : { retrieved: 'ranking' in output ? expandRanking(output.ranking) : output.retrieved };
      return {
        case_id: result.case_id,
        request_id: result.request_id,
        engine,
        metrics: sortedRecord(Object.entries(result.engines[engine] ?? {})),
        ...listed,
        ...(output?.response === undefined ? {} : { response: output.response }),
        ...(result.judging_skipped === undefined ? {} : { judging_skipped: result.judging_skipped }),
      };
    }),
  );
}

/**
 * The lines of `cases.jsonl` as text, one string a line (newline included),
 * in file order: the same bytes as casesJsonl, but a ranked list kept in
 * compact form is written straight from its columns, without building the
 * thousands of objects a sweep's line holds.
 */
export function* caseLineTexts(results: readonly CaseResult[]): Generator<string> {
  const sorted = [...results].sort((left, right) => compareText(left.case_id, right.case_id));
  for (const result of sorted) {
    for (const engine of sortedKeys(result.engines)) {
      const output = result.outputs !== undefined && Object.hasOwn(result.outputs, engine) ? result.outputs[engine] : undefined;
      const head = {
        case_id: result.case_id,
        request_id: result.request_id,
        engine,
        metrics: sortedRecord(Object.entries(result.engines[engine] ?? {})),
      };
      const skipped = result.judging_skipped === undefined ? {} : { judging_skipped: result.judging_skipped };
      if (output === undefined || !('ranking' in output)) {
        const listed =
          output === undefined
            ? {}
            : { retrieved: output.retrieved, ...(output.response === undefined ? {} : { response: output.response }) };
        yield `${JSON.stringify({ ...head, ...listed, ...skipped })}\n`;
        continue;
      }
      // The head without its closing brace, the list, then the fields after it, in caseLines' order.
      const after = JSON.stringify({ ...(output.response === undefined ? {} : { response: output.response }), ...skipped });
      yield `${JSON.stringify(head).slice(0, -1)},"retrieved":${rankingJson(output.ranking)}${after === '{}' ? '}' : `,${after.slice(1)}`}\n`;
    }
  }
}

/** A compact list as the JSON of its object form (expandRanking), written from the columns. */
function rankingJson(ranking: CompactRanking): string {
  const { doc_uris: documentIds, scores, human_grades: grades } = ranking;
  // Appended piece by piece: V8 joins the pieces once, at the end, and this is the reduce's hottest loop.
  let text = '[';
  for (let index = 0; index < documentIds.length; index++) {
    const documentId = documentIds[index] as string;
    const score = scores[index];
    const grade = grades?.[index];
    // A finite number prints the same in a string as in JSON; only an id with a quote, a backslash or a control character needs escaping.
    const id = NEEDS_ESCAPING.test(documentId) ? JSON.stringify(documentId) : `"${documentId}"`;
    text += `${index === 0 ? '{' : ',{'}"doc_uri":${id},"rank":${index + 1}`;
    if (score !== null && score !== undefined) text += `,"score":${score}`;
    if (grade !== null && grade !== undefined) text += `,"human_grade":${grade}`;
    text += '}';
  }
  return `${text}]`;
}

/** Characters JSON.stringify escapes in a string: quote, backslash, control characters and (lone) surrogates. */
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;
