import { compareText } from '../report/ordering.js';
import type { CanaryItem } from '../schema/canary-report.js';
import type { CaseLine } from '../schema/report.js';

/** What one judge made of the canary set: its verdicts item by item, and whether they are yes/no or grades. */
export interface JudgeItems {
  readonly scale: 'yes_no' | 'graded';
  readonly items: readonly CanaryItem[];
}

/** A retrieval judge's per-document ratings: `retrieval/<source>/<judge>/ratings`. */
const CHUNK_RATINGS = /^retrieval\/(?:llm_judged|lexical)\/([^/]+)\/ratings$/;
/** An answer judge's rating of one engine's answer: `<scope>/<source>/<judge>/rating`. */
const ANSWER_RATING = /^([a-z]+)\/(?:llm_judged|lexical)\/([^/]+)\/rating$/;

/**
 * The canary's verdicts of every judge, from the canary cases' lines of
 * cases.jsonl (in case-id order), by judge name as the run reports it
 * (variants such as `graded_relevance@gpt-4o` apart):
 *
 * - a retrieval judge's: one item per (request, document), over every engine
 *   of the case, as judgments.qrels and the report's agreement count a
 *   document: its first judged chunk, or a failed judgment (verdict null)
 *   when no chunk of it was judged; the human label is the document's grade
 *   in the canary set, when it has one;
 * - an answer judge's: one item per (request, engine), the human label that
 *   engine's human verdict on the judge (`<scope>/human/<judge>/rating`).
 *
 * yes/no verdicts read as 1/0, grades and scores as they are. Items are
 * sorted by request, then document or engine, so that two runs' lists pair
 * and read the same.
 */
export function canaryItems(lines: readonly CaseLine[]): Map<string, JudgeItems> {
  const byJudge = new Map<string, { yesNo: boolean; items: Map<string, CanaryItem> }>();
  const judgeOf = (name: string) => {
    const found = byJudge.get(name) ?? { yesNo: false, items: new Map<string, CanaryItem>() };
    byJudge.set(name, found);
    return found;
  };
  for (const line of lines) {
    for (const [metric, value] of Object.entries(line.metrics)) {
      const chunkJudge = CHUNK_RATINGS.exec(metric)?.[1];
      if (chunkJudge !== undefined && Array.isArray(value)) {
        const judge = judgeOf(chunkJudge);
        // The judges saw the top of the list (run.judge_depth): ratings line up with its first entries.
        for (const [index, rating] of value.entries()) {
          const document = line.retrieved?.[index];
          if (document === undefined) continue;
          const key = JSON.stringify([line.request_id, document.doc_uri]);
          const verdict = verdictOf(rating);
          judge.yesNo ||= rating === 'yes' || rating === 'no';
          const earlier = judge.items.get(key);
          if (earlier !== undefined && (earlier.verdict !== null || verdict === null)) continue;
          const human = document.human_grade === undefined ? {} : { human: document.human_grade };
          judge.items.set(key, { request_id: line.request_id, document: document.doc_uri, verdict, ...human });
        }
        continue;
      }
      const answer = ANSWER_RATING.exec(metric);
      if (answer === null || Array.isArray(value)) continue;
      const [, scope = 'response', name = ''] = answer;
      const judge = judgeOf(name);
      judge.yesNo ||= value === 'yes' || value === 'no';
      // A model variant's human twin is its judge's: human verdicts are given per judge id.
      const human = verdictOf(line.metrics[`${scope}/human/${name.replace(/@.*$/, '')}/rating`]);
      judge.items.set(JSON.stringify([line.request_id, line.engine]), {
        request_id: line.request_id,
        engine: line.engine,
        verdict: verdictOf(value),
        ...(human === null ? {} : { human }),
      });
    }
  }
  const judges = [...byJudge.keys()].sort(compareText);
  return new Map(
    judges.map((name) => {
      const { yesNo, items } = byJudge.get(name) as { yesNo: boolean; items: Map<string, CanaryItem> };
      return [name, { scale: yesNo ? 'yes_no' : 'graded', items: [...items.values()].sort(byItem) }];
    }),
  );
}

/** The key two runs' items pair by: the request and the document (or the engine). */
export function itemKey(item: CanaryItem): string {
  return JSON.stringify([item.request_id, item.document ?? null, item.engine ?? null]);
}

function byItem(left: CanaryItem, right: CanaryItem): number {
  return (
    compareText(left.request_id, right.request_id) ||
    compareText(left.document ?? '', right.document ?? '') ||
    compareText(left.engine ?? '', right.engine ?? '')
  );
}

/** A rating as a number: yes/no as 1/0, a finite number as it is; anything else (a failed judgment) none. */
function verdictOf(rating: unknown): number | null {
  if (rating === 'yes') return 1;
  if (rating === 'no') return 0;
  return typeof rating === 'number' && Number.isFinite(rating) ? rating : null;
}
