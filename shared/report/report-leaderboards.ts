import { runSettingsSchema } from '../config/config-schema.js';
import { parseJudgeTwin } from '../metrics/judge-twin-names.js';
import type { Leaderboard } from '../schema/leaderboard.js';
import type { PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import type { CaseLine, Report } from '../schema/report.js';
import type { Manifest } from '../schema/run-records.js';
import { alphaOfLevel, LEADERBOARD_SYSTEMS, LeaderboardTally, type CaseValue, type LeaderboardKind } from '../statistics/leaderboard.js';
import { headlineMetrics } from './key-metrics.js';
import type { MetricValue } from '../schema/metric-value.js';
import { comparableColumnValue, emptySegment, foldEngineMetrics, type SegmentColumns } from './metric-columns.js';
import { compareText } from './ordering.js';

export interface LeaderboardOptions {
  /** The corrected means' level and fewest labelled cases (run.corrected_estimates). */
  readonly level: number;
  readonly minLabelled: number;
  /** A pair is separated when its adjusted p-value is below this: 1 − level in a report. */
  readonly alpha: number;
  /** run.p_value_adjustment.leaderboard. */
  readonly method: PValueAdjustmentMethod;
  /** Only these metrics (`assay compare --metric`); every headline metric when not given. */
  readonly metrics?: readonly string[];
}

/** A stored run's leaderboard options, from its config's `run` section with the defaults filled. */
export function leaderboardOptionsOf(manifest: Manifest): LeaderboardOptions {
  const run = runSettingsSchema.parse((manifest.config as { run?: unknown }).run ?? {});
  const { level, min_labelled: minLabelled } = run.corrected_estimates;
  return { level, minLabelled, alpha: alphaOfLevel(level), method: run.p_value_adjustment.leaderboard };
}

/**
 * The leaderboards of a run with LEADERBOARD_SYSTEMS engines or more: one per
 * headline metric (the metrics the comparison with the baseline covers),
 * ranking the engines and testing every pair on the cases both have
 * (shared/statistics/leaderboard.ts). A human metric that a judge's twin
 * corrects (a ground-truth metric and a relevance judge's value of it, a
 * human verdict and the answer judge's rating: shared/metrics/judge-twin-names.ts)
 * gets one leaderboard per such judge with some case labelled, ranked by the
 * corrected means; any other metric one of plain means. The values are read
 * from the run's columns, segment after segment in case order (the reducer's
 * range partials, or one segment of every case), so the report builders give
 * the same leaderboards.
 */
export function reportLeaderboards(
  report: Pick<Report, 'engines'>,
  segments: readonly SegmentColumns[],
  options: LeaderboardOptions,
): Leaderboard[] {
  const engines = Object.keys(report.engines).sort(compareText);
  if (engines.length < LEADERBOARD_SYSTEMS) return [];
  const twins = judgeTwins(segments);
  const { metrics: _, ...settings } = options;
  const boards: Leaderboard[] = [];
  const asked = options.metrics === undefined ? undefined : new Set(options.metrics);
  for (const metric of headlineMetrics(report).filter((name) => asked?.has(name) ?? true)) {
    const corrected = [...(twins.get(metric) ?? [])]
      .sort(([left], [right]) => compareText(left, right))
      .map(([judge, twin]) => ({
        judge,
        board: tallied(
          engines,
          segments,
          'corrected',
          (column) => column(metric),
          (column) => column(twin),
        ).leaderboard({
          metric,
          judge,
          unit: 'cases',
          ...settings,
        }),
      }))
      .filter(({ board }) => board.ranking.some((system) => (system.labelled ?? 0) > 0));
    if (corrected.length > 0) boards.push(...corrected.map(({ board }) => board));
    else
      boards.push(
        tallied(engines, segments, 'plain', (column) => column(metric), undefined).leaderboard({ metric, unit: 'cases', ...options }),
      );
  }
  return boards.filter((board) => board.ranking.length >= LEADERBOARD_SYSTEMS);
}

/** human metric → judge → the judge's twin metric, over every engine's columns. */
function judgeTwins(segments: readonly SegmentColumns[]): Map<string, Map<string, string>> {
  const twins = new Map<string, Map<string, string>>();
  for (const segment of segments) {
    for (const columns of segment.engines.values()) {
      for (const name of columns.keys()) {
        const twin = parseJudgeTwin(name);
        if (twin === undefined) continue;
        const byJudge = twins.get(twin.human) ?? new Map<string, string>();
        twins.set(twin.human, byJudge.set(twin.judge, name));
      }
    }
  }
  return twins;
}

type ColumnReader = (metric: string) => number | undefined;

/** A tally fed every case of every segment: each engine's value (the human one) and, for a corrected board, the judge's. */
function tallied(
  engines: readonly string[],
  segments: readonly SegmentColumns[],
  kind: LeaderboardKind,
  human: (read: ColumnReader) => number | undefined,
  judge: ((read: ColumnReader) => number | undefined) | undefined,
): LeaderboardTally {
  const tally = new LeaderboardTally(engines, kind);
  for (const segment of segments) {
    const columns = engines.map((engine) => segment.engines.get(engine));
    for (let slot = 0; slot < segment.size; slot++) {
      const values = columns.map((byMetric): CaseValue | undefined => {
        if (byMetric === undefined) return undefined;
        const read: ColumnReader = (metric) => comparableColumnValue(byMetric.get(metric), slot, metric);
        return { human: human(read), judge: judge?.(read) };
      });
      if (values.some((value) => value?.human !== undefined || value?.judge !== undefined)) tally.add(values);
    }
  }
  return tally;
}

/** The report with its leaderboards, when its run has any (`leaderboards` left out otherwise). */
export function withLeaderboards(report: Report, segments: readonly SegmentColumns[], options: LeaderboardOptions): Report {
  const leaderboards = reportLeaderboards(report, segments, options);
  return leaderboards.length === 0 ? report : { ...report, leaderboards };
}

/** Every evaluated case's metrics in one segment, in the order given (case-id order): what reportInOnePass reads its leaderboards from. */
export function resultsSegment(
  results: readonly { readonly engines: Readonly<Record<string, Readonly<Record<string, MetricValue>>>> }[],
): SegmentColumns {
  const segment = emptySegment(results.length);
  for (const [slot, result] of results.entries()) {
    for (const [engine, metrics] of Object.entries(result.engines)) foldEngineMetrics(segment, slot, engine, metrics);
  }
  return segment;
}

/** The lines of cases.jsonl in one segment, a slot per case in case-id order (the order the reducer sums them in). */
export function caseLinesSegment(lines: readonly Pick<CaseLine, 'case_id' | 'engine' | 'metrics'>[]): SegmentColumns {
  const byCase = new Map<string, Record<string, Readonly<Record<string, MetricValue>>>>();
  for (const line of lines) {
    const engines = byCase.get(line.case_id) ?? {};
    engines[line.engine] = line.metrics;
    byCase.set(line.case_id, engines);
  }
  return resultsSegment([...byCase].sort(([left], [right]) => compareText(left, right)).map(([, engines]) => ({ engines })));
}
