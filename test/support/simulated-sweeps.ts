import { adjustedComparison } from '../../shared/compare/adjusted-comparison.js';
import { compareRuns, regressions, type RunFiles } from '../../shared/compare/compare-runs.js';
import type { PValueAdjustmentMethod } from '../../shared/schema/p-value-adjustment.js';
import type { CaseLine, Report } from '../../shared/schema/report.js';
import type { SeededRandom } from '../../shared/statistics/seeded-random.js';

/**
 * Seeded nights of a simulated sweep against its baseline, for the gate's
 * false alarms and power under adjusted p-values (the unit test of
 * shared/compare/adjusted-comparison.ts and bench/adjusted-gate.bench.ts).
 *
 * A night compares `engines` × `metrics` over `cases` cases. A case's value
 * of a metric is 0.5 + 0.15·d (the case's difficulty, shared by every engine
 * and metric) + 0.1·s (the engine's luck on the case, shared by its metrics)
 * + 0.05·w (the metric's own noise); the night draws new w and adds
 * 0.08·r, a run-to-run wobble of the engine on the case, shared by its
 * metrics: so the tests of one engine are strongly correlated, as nDCG@5 and
 * nDCG@10 are. With no planted drop nothing changed: every regression the
 * gate reports is a false alarm. A planted drop lowers one engine's metric
 * by `drop` on every case.
 */
export interface SweepShape {
  readonly engines: number;
  readonly metrics: number;
  readonly cases: number;
}

export interface PlantedDrop {
  readonly engine: number;
  readonly metric: number;
  readonly drop: number;
}

/** What the gate found on one night under one adjustment. */
export interface GateOutcome {
  /** The planted drops it reported as regressions. */
  readonly found: number;
  /** The regressions of metrics nothing was planted in. */
  readonly falseAlarms: number;
}

export const engineName = (index: number): string => `engine-${index}`;
export const metricName = (index: number): string => `retrieval/ground_truth/metric_${index}`;

/** One night against its baseline, under each adjustment asked for: what the gate (`regressions`) found. */
export function simulatedNight(
  shape: SweepShape,
  planted: readonly PlantedDrop[],
  random: SeededRandom,
  options: { readonly methods: readonly PValueAdjustmentMethod[]; readonly permutations: number },
): Record<PValueAdjustmentMethod, GateOutcome> {
  const { baseline, night } = nightRuns(shape, planted, random);
  const metrics = Array.from({ length: shape.metrics }, (_, index) => metricName(index));
  // Raw p-values once; each method is the same family adjusted its way (adjusted-comparison.ts).
  const raw = compareRuns(baseline, night, { metrics, adjustment: 'none', permutations: options.permutations });
  const plantedNames = new Set(planted.map((drop) => `${engineName(drop.engine)} ${metricName(drop.metric)}`));
  const outcomes: Partial<Record<PValueAdjustmentMethod, GateOutcome>> = {};
  for (const method of options.methods) {
    const adjusted = adjustedComparison(raw.engines, { method, alpha: 0.05 });
    const flagged = regressions(adjusted).map((regression) => `${regression.engine} ${regression.metric}`);
    const found = flagged.filter((name) => plantedNames.has(name)).length;
    outcomes[method] = { found, falseAlarms: flagged.length - found };
  }
  return outcomes as Record<PValueAdjustmentMethod, GateOutcome>;
}

function nightRuns(shape: SweepShape, planted: readonly PlantedDrop[], random: SeededRandom): { baseline: RunFiles; night: RunFiles } {
  const normal = normalDraws(random);
  const drops = new Map(planted.map((drop) => [`${drop.engine} ${drop.metric}`, drop.drop]));
  const before: CaseLine[] = [];
  const after: CaseLine[] = [];
  for (let index = 0; index < shape.cases; index++) {
    const requestId = `q${String(index).padStart(4, '0')}`;
    const difficulty = normal();
    for (let engine = 0; engine < shape.engines; engine++) {
      const luck = normal();
      const wobble = normal();
      const valuesBefore: Record<string, number> = {};
      const valuesAfter: Record<string, number> = {};
      for (let metric = 0; metric < shape.metrics; metric++) {
        const level = 0.5 + 0.15 * difficulty + 0.1 * luck;
        valuesBefore[metricName(metric)] = level + 0.05 * normal();
        valuesAfter[metricName(metric)] = level + 0.05 * normal() + 0.08 * wobble - (drops.get(`${engine} ${metric}`) ?? 0);
      }
      const line = { case_id: `c-${requestId}`, request_id: requestId, engine: engineName(engine) };
      before.push({ ...line, metrics: valuesBefore });
      after.push({ ...line, metrics: valuesAfter });
    }
  }
  return {
    baseline: { report: bareReport('baseline', shape.cases), cases: before },
    night: { report: bareReport('night', shape.cases), cases: after },
  };
}

/** A report with nothing but its counts: the comparison is given its metrics, and reads only the case lines. */
function bareReport(runId: string, cases: number): Report {
  return {
    run_id: runId,
    suite: 'nightly',
    dataset: 'datasets/nightly/cases.jsonl',
    config_hash: 'simulated',
    created_at: '2026-01-01T00:00:00.000Z',
    judge: 'none',
    cases: { total: cases, evaluated: cases, failed: 0, missing: 0, judge_failed: 0 },
    input_errors: 0,
    engines: {},
    judges: {},
    missing_cases: [],
    failed_cases: [],
  };
}

/** Standard normal draws by the Box-Muller transform of the seeded stream. */
export function normalDraws(random: SeededRandom): () => number {
  return () => {
    const first = (random.nextUint32() + 1) / 2 ** 32;
    const second = random.nextUint32() / 2 ** 32;
    return Math.sqrt(-2 * Math.log(first)) * Math.cos(2 * Math.PI * second);
  };
}
