import { runSettingsSchema } from '../config/config-schema.js';
import { pairedNumber, parseJudgeTwin } from '../metrics/judge-twin-names.js';
import type { Manifest } from '../schema/run-records.js';
import type { CaseLine, CorrectedDifference, CorrectedEstimate, Report } from '../schema/report.js';
import { correctedEstimate, type CorrectionSettings } from '../statistics/corrected-estimate.js';
import { addCase, emptyPairedSums, type PairedSums, type Population } from '../statistics/prediction-powered-mean.js';
import { compareText } from './ordering.js';

/**
 * The human metrics of a run corrected by its judges: for each engine, human
 * metric and judge, the mean over the run's cases estimated from the judge's
 * value on every case and the human value on the labelled ones
 * (shared/statistics/prediction-powered-mean.ts). The pairs are named in
 * shared/metrics/judge-twin-names.ts:
 * - a ground-truth metric and a relevance judge's value of it, the same
 *   metric with the judge's grades, pooled over the case's engines, as the
 *   qrels (`retrieval/<source>/<judge>/qrels/<metric>`, written by the judge
 *   worker beside the ground-truth metrics, shared/scoring/judge-qrels-metrics.ts);
 * - a person's verdict on a response (`<scope>/human/<judge>/rating`, from
 *   the dataset's human_verdicts) and the answer judge's rating of it
 *   (`<scope>/<source>/<judge>/rating`), yes as 1 and no as 0, a graded
 *   judge's number as it is: the judge's verdict rate or mean grade, corrected.
 * The lines of cases.jsonl come by in case-id order, a case's engines
 * together; only sums stay in memory.
 */

/**
 * A stored run's correction settings, its `run` section read by
 * the config's own schema (defaults filled), for the builders of a report
 * that have the manifest and no more.
 */
export function correctionSettingsOf(manifest: Manifest): CorrectionSettings {
  const run = runSettingsSchema.parse((manifest.config as { run?: unknown }).run ?? {});
  return { level: run.corrected_estimates.level, minLabelled: run.corrected_estimates.min_labelled };
}

/** A human verdict's statistic (`<scope>/human/<judge>/rating/...`). */
const HUMAN_VERDICT_STATISTIC = /^[a-z]+\/human\/[^/]+\/rating\//;

/**
 * Whether a report's statistics hold human verdicts: then the answer judges'
 * ratings of every case line are read for the correction, not only the lines
 * a relevance judge graded.
 */
export function holdsHumanVerdicts(report: Pick<Report, 'engines'>): boolean {
  return Object.values(report.engines).some((statistics) => Object.keys(statistics).some((name) => HUMAN_VERDICT_STATISTIC.test(name)));
}

/** engine → metric → judge → sums. */
type Tallies = Map<string, Map<string, Map<string, PairedSums>>>;

export class CorrectionTally {
  private readonly tallies: Tallies = new Map();
  /** The same, keyed by a pair of engines (`a\u0000b`, a before b by name): their per-case differences, a minus b. */
  private readonly pairs: Tallies = new Map();
  private caseLines: CaseLine[] = [];

  add(line: CaseLine): void {
    if (this.caseLines.length > 0 && this.caseLines[0]?.case_id !== line.case_id) this.flush();
    this.caseLines.push(line);
  }

  /**
   * Per engine, human metric (its full name) and judge: the estimate, or why
   * there is none. Only the human metrics some case has a value of are
   * estimated (a run with an answer judge and no human verdicts gets no
   * estimate of its verdict rate); undefined when there is none.
   */
  estimates(settings: CorrectionSettings): Record<string, Record<string, Record<string, CorrectedEstimate>>> | undefined {
    this.flush();
    const labelled = this.labelledMetrics();
    if (labelled.size === 0) return undefined;
    const result: Record<string, Record<string, Record<string, CorrectedEstimate>>> = {};
    for (const [engine, metrics] of sorted(this.tallies)) {
      const byMetric: Record<string, Record<string, CorrectedEstimate>> = {};
      for (const [metric, judges] of sorted(metrics)) {
        if (!labelled.has(metric)) continue;
        const byJudge: Record<string, CorrectedEstimate> = {};
        for (const [judge, sums] of sorted(judges)) byJudge[judge] = reportEstimate(sums, settings, 'finite');
        byMetric[metric] = byJudge;
      }
      if (Object.keys(byMetric).length > 0) result[engine] = byMetric;
    }
    return result;
  }

  /**
   * Each engine pair's differences, a minus b (a before b by name), on the
   * cases both engines have: the judge's difference on every such case, the
   * human one where both are labelled. What an engine-versus-engine
   * comparison within the run is corrected by.
   */
  differences(settings: CorrectionSettings): CorrectedDifference[] {
    this.flush();
    const labelled = this.labelledMetrics();
    const result: CorrectedDifference[] = [];
    for (const [pair, metrics] of sorted(this.pairs)) {
      const [first, second] = pair.split('\u0000') as [string, string];
      for (const [metric, judges] of sorted(metrics)) {
        if (!labelled.has(metric)) continue;
        for (const [judge, sums] of sorted(judges))
          result.push({ engines: [first, second], metric, judge, ...reportEstimate(sums, settings, 'superpopulation') });
      }
    }
    return result.some((difference) => difference.labelled > 0) ? result : [];
  }

  /** The human metrics with a value on some case of some engine, beside some judge's. */
  private labelledMetrics(): Set<string> {
    const labelled = new Set<string>();
    for (const metrics of this.tallies.values()) {
      for (const [metric, judges] of metrics) if ([...judges.values()].some((sums) => sums.labelled > 0)) labelled.add(metric);
    }
    return labelled;
  }

  /** The case whose lines have come by: each engine's values, then each pair's differences. */
  private flush(): void {
    const lines = this.caseLines;
    this.caseLines = [];
    // judge → engine → human metric → the judge's value and the human one.
    const values = new Map<string, Map<string, Map<string, { judge: number; human: number | undefined }>>>();
    for (const line of lines) {
      for (const [name, judged] of Object.entries(line.metrics)) {
        const twin = parseJudgeTwin(name);
        const value = twin === undefined ? undefined : pairedNumber(judged);
        if (twin === undefined || value === undefined) continue;
        const { judge, human: metric } = twin;
        const human = Object.hasOwn(line.metrics, metric) ? pairedNumber(line.metrics[metric]) : undefined;
        const byEngine = values.get(judge) ?? new Map<string, Map<string, { judge: number; human: number | undefined }>>();
        values.set(judge, byEngine);
        const byMetric = byEngine.get(line.engine) ?? new Map<string, { judge: number; human: number | undefined }>();
        byEngine.set(line.engine, byMetric);
        byMetric.set(metric, { judge: value, human });
        addCase(sumsIn(this.tallies, line.engine, metric, judge), value, human);
      }
    }
    for (const [judge, byEngine] of values) {
      const engines = [...byEngine.keys()].sort(compareText);
      for (const [index, first] of engines.entries()) {
        for (const second of engines.slice(index + 1)) {
          for (const [metric, left] of byEngine.get(first) ?? []) {
            const right = byEngine.get(second)?.get(metric);
            if (right === undefined) continue;
            const human = left.human === undefined || right.human === undefined ? undefined : left.human - right.human;
            addCase(sumsIn(this.pairs, `${first}\u0000${second}`, metric, judge), left.judge - right.judge, human);
          }
        }
      }
    }
  }
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

/**
 * An estimate as report.json holds it (its engines, their pairs, and the
 * comparison with the baseline, which `assay compare` prints too): counted in
 * cases, with no judge's mean where there is no interval, as report.json has
 * always written it.
 */
export function reportEstimate(sums: PairedSums, settings: CorrectionSettings, population: Population): CorrectedEstimate {
  return correctedEstimate(sums, { ...settings, population, unit: 'cases', judgeMeanWithoutInterval: false });
}

function sorted<Value>(map: ReadonlyMap<string, Value>): [string, Value][] {
  return [...map].sort(([left], [right]) => compareText(left, right));
}
