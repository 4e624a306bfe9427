import { countedAgreement } from '../agreement/counted-agreement.js';
import type { CaseLine, JudgeAgreement } from '../schema/report.js';
import type { Statistic } from '../statistics/statistic.js';
import { gradeOfRating } from './judgments-qrels.js';
import { compareText } from './ordering.js';

/** trec_eval's -l 1: a grade of 1 or more is relevant, for the binary statistics. */
export const AGREEMENT_LEVEL = 1;

/**
 * The per-document ratings of the relevance judges, by judge name as the run
 * reports it: `graded_relevance` and `chunk_relevance` and their model
 * variants (`graded_relevance@gpt-4o`), from the LLM or the lexical backend.
 * Custom retrieval judges are left out: their scale need not be relevance.
 */
const RELEVANCE_RATINGS = /^retrieval\/(?:llm_judged|lexical)\/((?:graded_relevance|chunk_relevance)(?:@[^/]+)?)\/ratings$/;

/**
 * Counts, judge by judge, how the judge graded each (request, document) that
 * the human labels too, while the lines of cases.jsonl go by in case-id
 * order: a confusion table of human grade × judge grade, so memory stays a
 * few cells a judge whatever the run's size. As judgments.qrels does, a
 * document counts once per case (its first successfully judged chunk, over
 * all engines) and a yes/no verdict reads as grade 1/0; a judged document
 * without a human label is skipped. A yes/no judge (chunk_relevance) is set
 * against the human labels read the same way, relevant (grade >= level) as
 * 1 and the rest as 0: its "yes" means relevant, not grade 1 of 3, so its
 * table is 2 × 2 and its kappa the binary one.
 */
export class AgreementTally {
  /** judge -> human grade -> judge grade -> pairs. */
  private readonly counts = new Map<string, Map<number, Map<number, number>>>();
  private labelled = false;
  private caseId: string | undefined;
  /** judge -> documents of the current case already counted. */
  private counted = new Map<string, Set<string>>();

  constructor(private readonly level: number = AGREEMENT_LEVEL) {}

  add(line: CaseLine): void {
    if (line.case_id !== this.caseId) {
      this.caseId = line.case_id;
      this.counted = new Map();
    }
    const retrieved = line.retrieved ?? [];
    if (retrieved.some((document) => document.human_grade !== undefined)) this.labelled = true;
    for (const [metric, ratings] of Object.entries(line.metrics)) {
      const judge = RELEVANCE_RATINGS.exec(metric)?.[1];
      if (judge === undefined || !Array.isArray(ratings)) continue;
      const table = this.counts.get(judge) ?? new Map<number, Map<number, number>>();
      this.counts.set(judge, table);
      const counted = this.counted.get(judge) ?? new Set<string>();
      this.counted.set(judge, counted);
      // The judges saw the top of the list (run.judge_depth): ratings line up with its first entries.
      for (const [index, rating] of ratings.entries()) {
        const document = retrieved[index];
        const judgeGrade = gradeOfRating(rating);
        if (document === undefined || judgeGrade === undefined || counted.has(document.doc_uri)) continue;
        counted.add(document.doc_uri);
        if (document.human_grade === undefined) continue;
        const humanGrade = typeof rating === 'string' ? Number(document.human_grade >= this.level) : document.human_grade;
        const row = table.get(humanGrade) ?? new Map<number, number>();
        table.set(humanGrade, row);
        row.set(judgeGrade, (row.get(judgeGrade) ?? 0) + 1);
      }
    }
  }

  /** The report's `agreement` block; undefined when no document carries a human label or no relevance judge ran. */
  agreement(): Record<string, JudgeAgreement> | undefined {
    if (!this.labelled || this.counts.size === 0) return undefined;
    const judges = [...this.counts.keys()].sort(compareText);
    return Object.fromEntries(
      judges.map((judge) => [judge, judgeAgreement(this.counts.get(judge) as Map<number, Map<number, number>>, this.level)]),
    );
  }
}

/**
 * One judge's block from its table. The categories of kappa are the grades
 * either side gives on a counted pair, ascending: weighted kappa measures a
 * disagreement by the distance of their positions, as `assay agreement` does.
 */
export function judgeAgreement(table: ReadonlyMap<number, ReadonlyMap<number, number>>, level: number): JudgeAgreement {
  const grades = new Set<number>();
  for (const [humanGrade, row] of table) {
    grades.add(humanGrade);
    for (const judgeGrade of row.keys()) grades.add(judgeGrade);
  }
  const categories = [...grades].sort((left, right) => left - right);
  const matrix = categories.map((humanGrade) => categories.map((judgeGrade) => table.get(humanGrade)?.get(judgeGrade) ?? 0));
  const statistics = countedAgreement(matrix, categories, level);
  const reasons: Record<string, string> = {};
  const value = (path: string, statistic: Statistic): number | null => {
    if (statistic.ok) return statistic.value;
    reasons[path] = statistic.error;
    return null;
  };
  return {
    pairs: statistics.pairs,
    exact_agreement: value('exact_agreement', statistics.exactAgreement),
    cohen_kappa: value('cohen_kappa', statistics.cohenKappa),
    weighted_kappa: value('weighted_kappa', statistics.weightedKappa),
    binary: {
      level,
      kappa: value('binary.kappa', statistics.binary.kappa),
      agreement: value('binary.agreement', statistics.binary.agreement),
      precision: value('binary.precision', statistics.binary.precision),
      recall: value('binary.recall', statistics.binary.recall),
    },
    confusion: Object.fromEntries(
      categories.map((humanGrade, row) => [
        String(humanGrade),
        Object.fromEntries(categories.map((judgeGrade, column) => [String(judgeGrade), matrix[row]?.[column] ?? 0])),
      ]),
    ),
    reasons,
  };
}
