import type { Measure } from '../metrics/registry.js';
import type { Qrels } from '../trec/qrels.js';
import type { AgreementReport, JudgeRankingReport } from '../schema/agreement.js';
import { buildAgreementReport, type AgreementInputs } from './agreement-report.js';
import { rankByCost, rankJudges, type CandidateEstimate } from './judge-choice.js';
import type { Result } from '../schema/result.js';

/** One candidate judge of `assay agreement`: its qrels and, when known, what its labels cost. */
export interface JudgeQrels {
  readonly name: string;
  readonly qrels: Qrels;
  readonly cost: number | null;
  /** The currency of `cost`, when it came from a run's report. */
  readonly currency?: string;
}

/**
 * Several judges' qrels against the same human qrels and runs: each judge's
 * agreement report, and the judges ranked by the corrected interval each
 * gives the first measure over the runs (judge-choice.ts), and by the human
 * labels that buys per unit of cost.
 */
export function rankJudgeQrels(judges: readonly JudgeQrels[], inputs: Omit<AgreementInputs, 'judge'>): Result<JudgeRankingReport> {
  if (inputs.runs.length === 0)
    return {
      ok: false,
      error: "Ranking judges needs --run: each judge is ranked by the corrected interval it gives the runs' measure over their topics",
    };
  const reports: Record<string, AgreementReport> = {};
  const candidates = [];
  for (const judge of judges) {
    const built = buildAgreementReport({ ...inputs, judge: judge.qrels, judgeName: judge.name });
    if (!built.ok) return { ok: false, error: `Judge ${judge.name}: ${built.error}` };
    reports[judge.name] = built.value;
    candidates.push({
      name: judge.name,
      estimates: estimatesOf(built.value, inputs.measure),
      kappa: built.value.cohen_kappa,
      cost: judge.cost,
    });
  }
  const byWidth = rankJudges(candidates);
  const currencies = new Set(judges.flatMap((judge) => (judge.currency === undefined ? [] : [judge.currency])));
  return {
    ok: true,
    value: {
      judges: reports,
      ranking: {
        measure: inputs.measure.trecName,
        level: inputs.correction?.level ?? 0.95,
        currency: currencies.size === 1 ? ([...currencies][0] as string) : null,
        by_width: byWidth,
        by_cost: rankByCost(byWidth),
      },
    },
  };
}

function estimatesOf(report: AgreementReport, measure: Measure): CandidateEstimate[] {
  return (report.estimates ?? [])
    .filter((estimate) => estimate.measure === measure.trecName)
    .map((estimate) => ({
      labelled: estimate.labelled,
      all: estimate.cases,
      ...(estimate.human_only === undefined ? {} : { humanOnly: estimate.human_only }),
      ...(estimate.corrected === undefined ? {} : { corrected: estimate.corrected }),
      ...(estimate.bias === undefined ? {} : { bias: estimate.bias }),
    }));
}
