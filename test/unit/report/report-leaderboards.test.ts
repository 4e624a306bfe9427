import { describe, expect, it } from 'vitest';
import { caseLinesSegment, reportLeaderboards } from '../../../shared/report/report-leaderboards.js';
import { leaderboardSchema } from '../../../shared/schema/leaderboard.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { NDCG, runFiles, type CaseSpec } from '../compare/factories.js';

const TWIN = 'retrieval/llm_judged/graded_relevance/qrels/ndcg@10';
const OPTIONS = { level: 0.95, minLabelled: 8, alpha: 0.05, method: 'benjamini-hochberg' as const };

/**
 * `engines` engines on 40 cases: engine k's nDCG@10 is 0.3 + 0.1·k plus noise, its
 * judge's twin 0.15 higher with noise of its own; the first `labelled` cases
 * carry the human value, the rest the judge's alone.
 */
function sweep(engines: number, labelled: number): CaseSpec[] {
  const random = seededRandom(engines * 100 + labelled);
  const noise = (): number => random.nextBelow(1000) / 5000 - 0.1;
  return Array.from({ length: 40 }, (_, index) => {
    const difficulty = noise();
    return {
      requestId: `q${String(index).padStart(2, '0')}`,
      engines: Object.fromEntries(
        Array.from({ length: engines }, (_, engine) => {
          const human = 0.3 + 0.1 * engine + difficulty + noise() / 2;
          return [`e${engine}`, { [TWIN]: human + 0.15 + noise() / 2, ...(index < labelled ? { [NDCG]: human } : {}) }];
        }),
      ),
    };
  });
}

describe('the leaderboards of a report', () => {
  it('rank three engines or more per headline metric, corrected by the judge where some case is labelled, in the report as in assay compare', () => {
    // Arrange
    const run = runFiles('r-sweep', sweep(4, 15));

    // Act
    const boards = run.report.leaderboards ?? [];
    const fromLines = reportLeaderboards(run.report, [caseLinesSegment(run.cases)], OPTIONS);

    // Assess: nDCG@10 corrected by graded_relevance; the twin itself is no headline metric
    expect(boards.map((board) => [board.metric, board.judge])).toEqual([[NDCG, 'graded_relevance']]);
    const [board] = boards;
    expect(() => leaderboardSchema.parse(board)).not.toThrow();
    expect(board?.ranking.map((system) => [system.name, system.estimate, system.n, system.labelled])).toEqual([
      ['e3', 'corrected', 40, 15],
      ['e2', 'corrected', 40, 15],
      ['e1', 'corrected', 40, 15],
      ['e0', 'corrected', 40, 15],
    ]);
    expect(board?.pairs).toHaveLength(6);
    expect(board?.pairs.every((pair) => pair.test === 'corrected' && pair.labelled === 15 && pair.n === 40)).toBe(true);
    expect(board?.adjustment).toEqual({ method: 'benjamini-hochberg', family: 'pairs', tests: 6, alpha: 0.05 });
    // The report's own (one segment of its results) and assay compare's (its cases.jsonl lines) are the same
    expect(fromLines).toEqual(boards);
  });

  it('rank by plain means and paired t-tests a metric no judge corrects, and only the metrics asked for', () => {
    // Arrange: every case labelled, no twin
    const cases = sweep(3, 40).map((spec) => ({
      ...spec,
      engines: Object.fromEntries(Object.entries(spec.engines).map(([engine, metrics]) => [engine, { [NDCG]: metrics[NDCG] ?? 0 }])),
    }));
    const run = runFiles('r-plain', cases);

    // Act
    const boards = reportLeaderboards(run.report, [caseLinesSegment(run.cases)], { ...OPTIONS, metrics: [NDCG] });
    const none = reportLeaderboards(run.report, [caseLinesSegment(run.cases)], {
      ...OPTIONS,
      metrics: ['retrieval/ground_truth/recall@5'],
    });

    // Assess
    expect(boards).toHaveLength(1);
    expect(boards[0]?.judge).toBeUndefined();
    expect(boards[0]?.ranking.map((system) => [system.name, system.estimate, system.n])).toEqual([
      ['e2', 'mean', 40],
      ['e1', 'mean', 40],
      ['e0', 'mean', 40],
    ]);
    expect(boards[0]?.pairs.every((pair) => pair.test === 'paired_t')).toBe(true);
    expect(none).toEqual([]);
  });

  it('leave a run of two engines without a leaderboard', () => {
    const run = runFiles('r-two', sweep(2, 15));

    expect(run.report.leaderboards).toBeUndefined();
    expect(reportLeaderboards(run.report, [caseLinesSegment(run.cases)], OPTIONS)).toEqual([]);
  });
});
