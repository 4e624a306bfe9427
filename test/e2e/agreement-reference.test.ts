import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgreementReport } from '../../shared/schema/agreement.js';
import { runCli } from '../support/run-cli.js';

/** test/fixtures/agreement/expected.json, written by reference.py with scikit-learn and SciPy. */
interface Reference {
  runs: string[];
  scenarios: { name: string; human: string; judge: string; measure: string; level: number; expected: Expected }[];
}
type Expected = Omit<AgreementReport, 'intervals' | 'reasons' | 'systems'> & {
  systems: { n: number; kendall_tau: number; spearman_rho: number; human: Record<string, number>; judge: Record<string, number> };
  intervals: Record<IntervalName, { low: number; high: number; resamples_used: number }>;
};
type IntervalName = 'cohen_kappa' | 'weighted_kappa' | 'binary_kappa' | 'kendall_tau';

const root = join(import.meta.dirname, '..', '..');
const reference = JSON.parse(readFileSync(join(root, 'test/fixtures/agreement/expected.json'), 'utf8')) as Reference;
const TOLERANCE = 1e-9;

const reports = new Map<string, Promise<AgreementReport>>();

/** The report of a scenario, computed once for all the tests that read it. */
function agreement(scenario: Reference['scenarios'][number]): Promise<AgreementReport> {
  const known = reports.get(scenario.name);
  if (known !== undefined) return known;
  const report = runAgreement(scenario);
  reports.set(scenario.name, report);
  return report;
}

async function runAgreement(scenario: Reference['scenarios'][number]): Promise<AgreementReport> {
  const runs = reference.runs.flatMap((run) => ['--run', join(root, run)]);
  const args = [
    'agreement',
    '--human',
    join(root, scenario.human),
    '--judge',
    join(root, scenario.judge),
    '-m',
    scenario.measure,
    '-l',
    String(scenario.level),
  ];
  const result = await runCli([...args, ...runs, '--json']);
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as AgreementReport;
}

describe.each(reference.scenarios)('assay agreement against scikit-learn and SciPy: $name', (scenario) => {
  it('gives the same pairs, confusion matrix, agreement and kappas', async () => {
    // Act
    const report = await agreement(scenario);

    // Assess
    const { expected } = scenario;
    expect(report).toMatchObject({
      pairs: expected.pairs,
      human_only: expected.human_only,
      judge_only: expected.judge_only,
      categories: expected.categories,
      confusion: expected.confusion,
    });
    expect(report.exact_agreement).toBeCloseTo(expected.exact_agreement as number, 9);
    expect(Math.abs((report.cohen_kappa as number) - (expected.cohen_kappa as number))).toBeLessThanOrEqual(TOLERANCE);
    expect(Math.abs((report.weighted_kappa as number) - (expected.weighted_kappa as number))).toBeLessThanOrEqual(TOLERANCE);
    for (const key of ['kappa', 'agreement', 'precision', 'recall'] as const) {
      expect(Math.abs((report.binary[key] as number) - (expected.binary[key] as number)), key).toBeLessThanOrEqual(TOLERANCE);
    }
    expect(report.binary.level).toBe(expected.binary.level);
    expect(report.reasons).toEqual({});
  });

  it("gives the same per-run values, Kendall's tau-b and Spearman's rho", async () => {
    const report = await agreement(scenario);

    const { systems } = scenario.expected;
    expect(report.systems?.n).toBe(systems.n);
    expect(Object.keys(report.systems?.human ?? {})).toEqual(Object.keys(systems.human));
    for (const labels of ['human', 'judge'] as const) {
      for (const [run, value] of Object.entries(systems[labels])) {
        expect(Math.abs((report.systems?.[labels][run] as number) - value), `${labels} ${run}`).toBeLessThanOrEqual(TOLERANCE);
      }
    }
    expect(Math.abs((report.systems?.kendall_tau as number) - systems.kendall_tau)).toBeLessThanOrEqual(TOLERANCE);
    expect(Math.abs((report.systems?.spearman_rho as number) - systems.spearman_rho)).toBeLessThanOrEqual(TOLERANCE);
  });

  it("scores every run as assay ir-metrics does (trec_eval's value), under both qrels", async () => {
    // Prepare
    const report = await agreement(scenario);
    const names = Object.keys(report.systems?.human ?? {});

    for (const [labels, qrels] of [
      ['human', scenario.human],
      ['judge', scenario.judge],
    ] as const) {
      for (const [index, run] of reference.runs.entries()) {
        // Act
        const result = await runCli([
          'ir-metrics',
          '-m',
          scenario.measure,
          '-l',
          String(scenario.level),
          '--json',
          join(root, qrels),
          join(root, run),
        ]);

        // Assess: the same double, not merely a close one
        const all = (JSON.parse(result.stdout) as { all: Record<string, number> }).all;
        const measureName = report.systems?.measure as string;
        expect(report.systems?.[labels][names[index] as string], `${labels} ${run}`).toBe(all[measureName]);
      }
    }
  });
});

describe('the agreement bootstrap on the reference collection', () => {
  it.each(reference.scenarios)('draws the resamples the reference draws with the same generator: $name', async (scenario) => {
    // Act
    const report = await agreement(scenario);

    // Assess: the same seeded draws, the same kappas and taus per resample, the same percentiles
    for (const name of ['cohen_kappa', 'weighted_kappa', 'binary_kappa', 'kendall_tau'] as const) {
      const interval = report.intervals[name];
      const expected = scenario.expected.intervals[name];
      expect(interval?.resamples_used, name).toBe(expected.resamples_used);
      expect(Math.abs((interval?.low as number) - expected.low), name).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs((interval?.high as number) - expected.high), name).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  it('leaves out the topic resamples where results.trunc (no topic 302) has no topic', async () => {
    // Each of the 3 topics is drawn 3 times: {302, 302, 302} comes 1 time in 27.
    const report = await agreement(reference.scenarios[0] as Reference['scenarios'][number]);

    const used = report.intervals.kendall_tau?.resamples_used ?? 0;
    expect(used).toBeLessThan(1000);
    expect(used).toBeGreaterThan(1000 - 2 * (1000 / 27));
    expect(report.intervals.cohen_kappa?.resamples_used).toBe(1000);
    expect(report.intervals.cohen_kappa?.low).toBeLessThan(report.cohen_kappa as number);
    expect(report.intervals.cohen_kappa?.high).toBeGreaterThan(report.cohen_kappa as number);
  });
});
