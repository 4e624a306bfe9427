import { runSettingsSchema } from '../config/config-schema.js';
import { groundTruthMetrics } from '../metrics/ground-truth-metrics.js';
import type { Manifest } from '../schema/run-records.js';
import type { CaseLine, CorrectedDifference, CorrectedEstimate } from '../schema/report.js';
import { addCase, correctedMean, emptyPairedSums, type PairedSums } from '../statistics/prediction-powered-mean.js';
import { gradeOfRating } from './judgments-qrels.js';
import { compareText } from './ordering.js';

/**
 * The ground-truth metrics of a run corrected by its judge: for each engine,
 * ground-truth metric and relevance judge, the mean over the run's cases
 * estimated from the judge's value of the metric on every case and the human
 * value on the labelled ones (shared/statistics/prediction-powered-mean.ts).
 *
 * The judge's value of a metric is the same metric, the same formula, with
 * the judge's grades as the qrels: each case's documents the judge graded,
 * pooled over its engines (a document's first graded chunk, as
 * judgments.qrels has it), every other document unjudged. A graded judge
 * (graded_relevance, 0-3) stands for every ground-truth metric, its grades
 * the gains of NDCG and grade 1 or more relevant for the others; a yes/no
 * judge (chunk_relevance) for the binary ones only (precision@k, recall@k,
 * average precision, reciprocal rank), "yes" relevant. The lines of
 * cases.jsonl come by in case-id order, a case's engines together; only the
 * sums stay in memory.
 */
const RELEVANCE_RATINGS = /^retrieval\/(?:llm_judged|lexical)\/((?:graded_relevance|chunk_relevance)(?:@[^/]+)?)\/ratings$/;
const GROUND_TRUTH = 'retrieval/ground_truth/';
/** Metrics a yes/no judge's relevance has a twin of; NDCG needs grades, and document_recall is the human labels' own. */
const BINARY_TWINS = /^(precision@\d+|recall@\d+|average_precision|reciprocal_rank)$/;
const GRADED_TWINS = /^(ndcg@\d+|precision@\d+|recall@\d+|average_precision|reciprocal_rank)$/;

/**
 * A stored run's cutoffs and correction settings, its `run` section read by
 * the config's own schema (defaults filled), for the builders of a report
 * that have the manifest and no more.
 */
export function correctionSettingsOf(manifest: Manifest): { cutoffs: readonly number[]; settings: CorrectionSettings } {
  const run = runSettingsSchema.parse((manifest.config as { run?: unknown }).run ?? {});
  return { cutoffs: run.cutoffs, settings: { level: run.corrected_estimates.level, minLabelled: run.corrected_estimates.min_labelled } };
}

export interface CorrectionSettings {
  /** The confidence level of the intervals, e.g. 0.95. */
  readonly level: number;
  /** The fewest labelled cases an interval is given for. */
  readonly minLabelled: number;
}

/** engine → metric → judge → sums. */
type Tallies = Map<string, Map<string, Map<string, PairedSums>>>;

export class CorrectionTally {
  private readonly tallies: Tallies = new Map();
  /** The same, keyed by a pair of engines (`a\u0000b`, a before b by name): their per-case differences, a minus b. */
  private readonly pairs: Tallies = new Map();
  private caseLines: CaseLine[] = [];

  /** `cutoffs`: the run's `run.cutoffs`, the k of its ground-truth metrics. */
  constructor(private readonly cutoffs: readonly number[]) {}

  add(line: CaseLine): void {
    if (this.caseLines.length > 0 && this.caseLines[0]?.case_id !== line.case_id) this.flush();
    this.caseLines.push(line);
  }

  /** Per engine, ground-truth metric and judge: the estimate, or why there is none. Undefined when no case had both a judge's and a human value. */
  estimates(settings: CorrectionSettings): Record<string, Record<string, Record<string, CorrectedEstimate>>> | undefined {
    this.flush();
    let labelled = false;
    const result: Record<string, Record<string, Record<string, CorrectedEstimate>>> = {};
    for (const [engine, metrics] of sorted(this.tallies)) {
      const byMetric: Record<string, Record<string, CorrectedEstimate>> = {};
      for (const [metric, judges] of sorted(metrics)) {
        const byJudge: Record<string, CorrectedEstimate> = {};
        for (const [judge, sums] of sorted(judges)) {
          if (sums.labelled > 0) labelled = true;
          byJudge[judge] = estimateOf(sums, settings);
        }
        byMetric[`${GROUND_TRUTH}${metric}`] = byJudge;
      }
      result[engine] = byMetric;
    }
    return labelled ? result : undefined;
  }

  /**
   * Each engine pair's differences, a minus b (a before b by name), on the
   * cases both engines have: the judge's difference on every such case, the
   * human one where both are labelled. What an engine-versus-engine
   * comparison within the run is corrected by.
   */
  differences(settings: CorrectionSettings): CorrectedDifference[] {
    this.flush();
    const result: CorrectedDifference[] = [];
    for (const [pair, metrics] of sorted(this.pairs)) {
      const [first, second] = pair.split('\u0000') as [string, string];
      for (const [metric, judges] of sorted(metrics)) {
        for (const [judge, sums] of sorted(judges)) result.push({ engines: [first, second], metric: `${GROUND_TRUTH}${metric}`, judge, ...estimateOf(sums, settings) });
      }
    }
    return result.some((difference) => difference.labelled > 0) ? result : [];
  }

  /** The case whose lines have come by: its pooled judge qrels, then each engine's values, then each pair's differences. */
  private flush(): void {
    const lines = this.caseLines;
    this.caseLines = [];
    for (const [judge, qrels] of judgeQrels(lines)) {
      const values = new Map<string, Map<string, { judge: number; human: number | undefined }>>();
      for (const line of lines) {
        const retrieved = line.retrieved ?? [];
        if (retrieved.length === 0) continue;
        const judged = groundTruthMetrics(
          { request_id: line.request_id, request: '', engines: {}, tags: {}, expected_retrieved_context: [...qrels].map(([doc_uri, grade]) => ({ doc_uri, grade })) },
          { retrieved_context: retrieved.map((document) => ({ doc_uri: document.doc_uri, rank: document.rank })), tags: {} },
          this.cutoffs,
        );
        const twins = qrels.graded ? GRADED_TWINS : BINARY_TWINS;
        const engineValues = new Map<string, { judge: number; human: number | undefined }>();
        values.set(line.engine, engineValues);
        for (const [name, value] of Object.entries(judged)) {
          const metric = name.slice(GROUND_TRUTH.length);
          if (!twins.test(metric) || typeof value !== 'number') continue;
          const human = line.metrics[name];
          engineValues.set(metric, { judge: value, human: typeof human === 'number' ? human : undefined });
          addCase(sumsIn(this.tallies, line.engine, metric, judge), value, typeof human === 'number' ? human : undefined);
        }
      }
      const engines = [...values.keys()].sort(compareText);
      for (const [index, first] of engines.entries()) {
        for (const second of engines.slice(index + 1)) {
          for (const [metric, left] of values.get(first) ?? []) {
            const right = values.get(second)?.get(metric);
            if (right === undefined) continue;
            const human = left.human === undefined || right.human === undefined ? undefined : left.human - right.human;
            addCase(sumsIn(this.pairs, `${first}\u0000${second}`, metric, judge), left.judge - right.judge, human);
          }
        }
      }
    }
  }

}

/** Each relevance judge's grades of the case's documents, pooled over its engines: the first graded chunk of a document counts. */
function judgeQrels(lines: readonly CaseLine[]): Map<string, Map<string, number> & { graded: boolean }> {
  const byJudge = new Map<string, Map<string, number> & { graded: boolean }>();
  for (const line of lines) {
    const retrieved = line.retrieved ?? [];
    for (const [metric, ratings] of Object.entries(line.metrics)) {
      const judge = RELEVANCE_RATINGS.exec(metric)?.[1];
      if (judge === undefined || !Array.isArray(ratings)) continue;
      const qrels = byJudge.get(judge) ?? Object.assign(new Map<string, number>(), { graded: false });
      byJudge.set(judge, qrels);
      for (const [index, rating] of ratings.entries()) {
        const document = retrieved[index];
        const grade = gradeOfRating(rating);
        if (document === undefined || grade === undefined || qrels.has(document.doc_uri)) continue;
        if (typeof rating === 'number') qrels.graded = true;
        qrels.set(document.doc_uri, grade);
      }
    }
  }
  return byJudge;
}

function sumsIn(tallies: Tallies, key: string, metric: string, judge: string): PairedSums {
  const metrics = tallies.get(key) ?? new Map<string, Map<string, PairedSums>>();
  tallies.set(key, metrics);
  const judges = metrics.get(metric) ?? new Map<string, PairedSums>();
  metrics.set(metric, judges);
  const sums = judges.get(judge) ?? emptyPairedSums();
  judges.set(judge, sums);
  return sums;
}

function estimateOf(sums: PairedSums, settings: CorrectionSettings): CorrectedEstimate {
  const outcome = correctedMean(sums, settings);
  if (!outcome.ok) return { labelled: sums.labelled, cases: sums.all, reason: outcome.reason };
  const { value } = outcome;
  return {
    labelled: value.labelled,
    cases: value.all,
    level: value.level,
    judge_only: value.judgeOnly,
    human_only: value.humanOnly,
    corrected: value.corrected,
    bias: value.bias,
    correlation: value.correlation,
  };
}

function sorted<Value>(map: ReadonlyMap<string, Value>): [string, Value][] {
  return [...map].sort(([left], [right]) => compareText(left, right));
}

