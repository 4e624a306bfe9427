import type { Result } from '../../schema/result.js';
import type { Verdict } from '../judge-definition.js';
import { GRADE_0_3, ratingValue, YES_NO } from '../scale.js';
import { groundedShare } from './grounded-share.js';
import { scoreText } from './score-text.js';
import { termCoverage, type TermCoverage } from './term-coverage.js';
import { tokenize } from './tokenize.js';

/**
 * The lexical judge: deterministic stand-ins for four LLM judges, used when no
 * model can be called, so that a run still gives a first signal. They compare
 * words, not meaning (token overlap and BM25-style term coverage, in the spirit
 * of the non-LLM metrics of RAGAS): a paraphrase or a translation is not seen
 * as a match, and a passage that repeats the request without answering it is.
 *
 * - chunk_relevance (request, chunk): yes when the passage covers at least
 *   RELEVANT_COVERAGE of the request's terms (term-coverage.ts).
 * - graded_relevance (request, chunk): the same coverage cut into grades 0-3
 *   at GRADE_BOUNDS, so that "yes" above is exactly grade 2 or 3.
 * - relevance_to_query (request, response): yes when the response covers at
 *   least ANSWER_COVERAGE of the request's terms.
 * - groundedness (response, context): yes when at least GROUNDED_SHARE of the
 *   response's content tokens occur in the context (grounded-share.ts).
 *
 * Pure: the same inputs always give the same verdict.
 */

/** The judges the lexical judge stands in for. */
export const LEXICAL_JUDGE_IDS = ['chunk_relevance', 'graded_relevance', 'relevance_to_query', 'groundedness'] as const;
export type LexicalJudgeId = (typeof LEXICAL_JUDGE_IDS)[number];

export interface LexicalInputs {
  readonly request: string;
  readonly response?: string;
  readonly chunk?: string;
  readonly context?: readonly string[];
}

/**
 * A passage is relevant when it "helps answer the request, fully or in part":
 * covering half of what the request asks about is where a passage starts to be
 * more about the request than beside it.
 */
export const RELEVANT_COVERAGE = 0.5;
/** Grades 1, 2 and 3 start here; 0.5 is shared with RELEVANT_COVERAGE. */
export const GRADE_BOUNDS = [0.2, 0.5, 0.8] as const;
/**
 * Lower than RELEVANT_COVERAGE: an answer states its subject and leaves out
 * the request's own framing ("choose", "best", "difference"), where a
 * retrieved passage is matched against all of it.
 */
export const ANSWER_COVERAGE = 0.4;
/**
 * Four words in five must come from the context. Below that, the response
 * brings in much wording the context does not contain; the fifth word leaves
 * room for the connecting words a writer adds that no stop-word list holds.
 */
export const GROUNDED_SHARE = 0.8;

const PREFIX = 'Non-LLM lexical approximation:';

export function isLexicalJudge(id: string): id is LexicalJudgeId {
  return (LEXICAL_JUDGE_IDS as readonly string[]).includes(id);
}

export function lexicalVerdict(judgeId: LexicalJudgeId, inputs: LexicalInputs): Result<Verdict> {
  switch (judgeId) {
    case 'chunk_relevance':
    case 'graded_relevance': {
      if (isMissing(inputs.request) || isMissing(inputs.chunk))
        return { ok: false, error: `lexical ${judgeId} needs a request and a chunk` };
      const coverage = termCoverage(tokenize(inputs.request), tokenize(inputs.chunk));
      return { ok: true, value: judgeId === 'chunk_relevance' ? chunkRelevance(coverage) : gradedRelevance(coverage) };
    }
    case 'relevance_to_query': {
      if (isMissing(inputs.request) || isMissing(inputs.response))
        return { ok: false, error: 'lexical relevance_to_query needs a request and a response' };
      return { ok: true, value: relevanceToQuery(termCoverage(tokenize(inputs.request), tokenize(inputs.response))) };
    }
    case 'groundedness': {
      if (isMissing(inputs.response) || isMissing(inputs.context))
        return { ok: false, error: 'lexical groundedness needs a response and a context' };
      return { ok: true, value: groundedness(inputs.response, inputs.context) };
    }
  }
}

/** The grade of a coverage: how many of GRADE_BOUNDS it reaches. */
export function relevanceGrade(coverage: number): number {
  return GRADE_BOUNDS.filter((bound) => coverage >= bound).length;
}

function chunkRelevance(coverage: TermCoverage): Verdict {
  const relevant = coverage.coverage >= RELEVANT_COVERAGE;
  const comparison = compared(coverage.coverage, RELEVANT_COVERAGE, 'weighted coverage');
  return yesNo(
    relevant,
    `${coverageText(coverage, 'passage')}; ${comparison}, so ${relevant ? 'relevant' : 'not relevant'}.`,
    passageDetails(coverage),
  );
}

function gradedRelevance(coverage: TermCoverage): Verdict {
  const grade = relevanceGrade(coverage.coverage);
  const lower = grade === 0 ? 0 : GRADE_BOUNDS[grade - 1];
  const upper = GRADE_BOUNDS[grade];
  const range = upper === undefined ? `at least ${lower}` : `in [${lower}, ${upper})`;
  const label = GRADE_0_3.type === 'grade' ? GRADE_0_3.labels[grade] : undefined;
  return {
    rating: grade,
    value: ratingValue(GRADE_0_3, grade),
    rationale: `${PREFIX} ${coverageText(coverage, 'passage')}; weighted coverage ${scoreText(coverage.coverage, GRADE_BOUNDS)} is ${range}, so grade ${grade}${label === undefined ? '' : ` (${label})`}.`,
    details: passageDetails(coverage),
  };
}

function relevanceToQuery(coverage: TermCoverage): Verdict {
  const relevant = coverage.coverage >= ANSWER_COVERAGE;
  const comparison = compared(coverage.coverage, ANSWER_COVERAGE, 'weighted coverage');
  const conclusion = relevant ? 'the response addresses the request' : 'the response does not address the request';
  return yesNo(relevant, `${coverageText(coverage, 'response')}; ${comparison}, so ${conclusion}.`, {
    coverage: coverage.coverage,
    request_terms: coverage.terms,
    found_terms: coverage.found,
    response_length: coverage.passageLength,
  });
}

function groundedness(response: string, context: readonly string[]): Verdict {
  const share = groundedShare(tokenize(response), context.map(tokenize));
  const grounded = share.share >= GROUNDED_SHARE;
  const counts =
    share.tokens === 0
      ? 'the response has no content words to check against the context'
      : `${share.grounded} of ${share.tokens} response content words occur in the context${context.length === 0 ? ' (the context is empty)' : ''}`;
  const comparison = compared(share.share, GROUNDED_SHARE, 'share');
  return yesNo(grounded, `${counts}; ${comparison}, so ${grounded ? 'grounded' : 'not grounded'}.`, {
    grounded_share: share.share,
    response_tokens: share.tokens,
    grounded_tokens: share.grounded,
  });
}

function coverageText(coverage: TermCoverage, where: 'passage' | 'response'): string {
  if (coverage.terms === 0) return `the request has no content words once stop words are removed, so the ${where} cannot cover it`;
  const found = `${coverage.found} of ${coverage.terms} request terms found in the ${where}`;
  // single mentions count partly only in a text longer than average (term-coverage.ts)
  const discounted = coverage.coverage < coverage.found / coverage.terms;
  return discounted ? `${found} (${coverage.passageLength} words long, so single mentions count partly)` : found;
}

function compared(score: number, threshold: number, name: string): string {
  return `${name} ${scoreText(score, [threshold])} ${score >= threshold ? '≥' : '<'} ${threshold}`;
}

function passageDetails(coverage: TermCoverage): Record<string, number> {
  return {
    coverage: coverage.coverage,
    request_terms: coverage.terms,
    found_terms: coverage.found,
    passage_length: coverage.passageLength,
  };
}

function yesNo(yes: boolean, rationale: string, details: Record<string, number>): Verdict {
  const rating = yes ? 'yes' : 'no';
  return { rating, value: ratingValue(YES_NO, rating), rationale: `${PREFIX} ${rationale}`, details };
}

/** Undefined or null: JavaScript callers and parsed rows can hand either for an absent input. */
function isMissing<T>(value: T | undefined | null): value is undefined | null {
  return value === undefined || value === null;
}
