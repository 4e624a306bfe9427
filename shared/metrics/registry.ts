import type { Result } from '../schema/result.js';
import { averagePrecision, averagePrecisionAt } from './average-precision.js';
import { numberRelevant, numberRelevantRetrieved, numberRetrieved } from './counts.js';
import type { GainScheme } from './gain.js';
import { hitAt } from './hit.js';
import { relevantCount, type JudgedRanking } from './judged-ranking.js';
import { ndcg } from './ndcg.js';
import { ndcgAt } from './ndcg-cut.js';
import { precisionAt } from './precision.js';
import { rPrecision } from './r-precision.js';
import { recallAt } from './recall.js';
import { reciprocalRank } from './reciprocal-rank.js';

/**
 * The measure registry: maps trec_eval's names (`P.5,10`, `P_5`,
 * `ndcg_cut.10`, `map`) and assay's (`precision@5`, `ndcg@10`,
 * `average_precision`) to the pure per-query functions of this folder.
 */

export interface MeasureOptions {
  /** Lowest grade that counts as relevant (trec_eval -l); an integer >= 0. */
  readonly relevanceLevel: number;
  /** Gain for NDCG measures; trec_eval's is linear. */
  readonly gain: 'linear' | 'exponential';
}

export const DEFAULT_MEASURE_OPTIONS: MeasureOptions = { relevanceLevel: 1, gain: 'linear' };

export interface Measure {
  /** assay's name, used in reports: `precision@5`, `ndcg@10`, `average_precision`. */
  readonly name: string;
  /** trec_eval's printed name: `P_5`, `ndcg_cut_10`, `map`. */
  readonly trecName: string;
  /** How per-query values combine over queries: trec_eval sums the counts and averages the rest. */
  readonly aggregate: 'mean' | 'sum';
  /** Whether values are counts (printed as integers). */
  readonly integer: boolean;
  /** The per-query value; undefined when the measure is undefined for this query. */
  compute(ranking: JudgedRanking, options: MeasureOptions): number | undefined;
}

/** trec_eval's default cutoffs for P, recall, ndcg_cut and map_cut (m_P.c and the others). */
export const DEFAULT_CUTOFFS: readonly number[] = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

/** trec_eval's default cutoffs for success (m_success.c). */
export const DEFAULT_SUCCESS_CUTOFFS: readonly number[] = [1, 5, 10];

function defaultCutoffs(family: CutoffFamily): readonly number[] {
  return family === 'hit' ? DEFAULT_SUCCESS_CUTOFFS : DEFAULT_CUTOFFS;
}

export type ResolvedMeasures = Result<Measure[]>;

type CutoffFamily = 'precision' | 'recall' | 'ndcg' | 'average_precision' | 'hit';

const cutoffFamilies: Record<CutoffFamily, { trec: string; compute: (r: JudgedRanking, k: number, o: MeasureOptions) => number }> = {
  precision: { trec: 'P', compute: (r, k, o) => precisionAt(r, k, o.relevanceLevel) },
  recall: { trec: 'recall', compute: (r, k, o) => recallAt(r, k, o.relevanceLevel) },
  ndcg: { trec: 'ndcg_cut', compute: (r, k, o) => ndcgAt(r, k, o.gain) },
  average_precision: { trec: 'map_cut', compute: (r, k, o) => averagePrecisionAt(r, k, o.relevanceLevel) },
  hit: { trec: 'success', compute: (r, k, o) => hitAt(r, k, o.relevanceLevel) },
};

/** trec_eval's names of the cutoff families (`P.5,10`, `P_5`, `P`). */
const trecCutoffNames: Record<string, CutoffFamily> = {
  P: 'precision',
  recall: 'recall',
  ndcg_cut: 'ndcg',
  map_cut: 'average_precision',
  success: 'hit',
};

/** assay's names of cutoff families that, written alone, mean the default cutoffs (as `P` does). */
const bareCutoffNames: Record<string, CutoffFamily> = { precision: 'precision', hit: 'hit' };

/** Names accepted before `@K`: assay's and trec_eval's. */
const cutoffNames: Record<string, CutoffFamily> = {
  P: 'precision',
  precision: 'precision',
  recall: 'recall',
  ndcg_cut: 'ndcg',
  ndcg: 'ndcg',
  map_cut: 'average_precision',
  average_precision: 'average_precision',
  map: 'average_precision',
  ap: 'average_precision',
  success: 'hit',
  hit: 'hit',
};

function plainMeasure(name: string, trecName: string, compute: Measure['compute'], aggregate: Measure['aggregate'] = 'mean'): Measure {
  return { name, trecName, aggregate, integer: aggregate === 'sum', compute };
}

const plainMeasures: readonly Measure[] = [
  plainMeasure('num_ret', 'num_ret', (r) => numberRetrieved(r), 'sum'),
  plainMeasure('num_rel', 'num_rel', (r, o) => numberRelevant(r, o.relevanceLevel), 'sum'),
  plainMeasure('num_rel_ret', 'num_rel_ret', (r, o) => numberRelevantRetrieved(r, o.relevanceLevel), 'sum'),
  plainMeasure('average_precision', 'map', (r, o) => averagePrecision(r, o.relevanceLevel)),
  plainMeasure('r_precision', 'Rprec', (r, o) => rPrecision(r, o.relevanceLevel)),
  plainMeasure('reciprocal_rank', 'recip_rank', (r, o) => reciprocalRank(r, o.relevanceLevel)),
  plainMeasure('ndcg', 'ndcg', (r, o) => ndcg(r, o.gain)),
  plainMeasure('document_recall', 'document_recall', (r, o) => {
    // Databricks' document_recall: undefined without labels, not 0.
    const relevant = relevantCount(r, o.relevanceLevel);
    return relevant === 0 ? undefined : numberRelevantRetrieved(r, o.relevanceLevel) / relevant;
  }),
];

const plainAliases: Record<string, string> = {
  map: 'average_precision',
  ap: 'average_precision',
  Rprec: 'r_precision',
  recip_rank: 'reciprocal_rank',
  mrr: 'reciprocal_rank',
  rr: 'reciprocal_rank',
};

/** A measure of a cutoff family at one cutoff k. */
export function cutoffMeasure(family: CutoffFamily, k: number): Measure {
  const { trec, compute } = cutoffFamilies[family];
  return plainMeasure(`${family}@${k}`, `${trec}_${k}`, (r, o) => compute(r, k, o));
}

/**
 * Resolves one measure name to the measures it stands for. Accepted forms:
 * `precision@5`, `P_5`, `P.5,10,20` (trec_eval's list: sorted, each cutoff a
 * positive integer, no duplicates), `P` (trec_eval's default cutoffs),
 * `ndcg`, `ndcg.1=3,2=9` (trec_eval's grade=gain pairs), `map`, `Rprec`, ...
 */
export function resolveMeasures(name: string): ResolvedMeasures {
  const at = /^([A-Za-z_]+)@(\d+)$/.exec(name);
  if (at) {
    const family = cutoffNames[at[1] as string];
    const k = Number(at[2]);
    if (family === undefined) return unknown(name);
    if (k < 1) return { ok: false, error: `Expected the cutoff in "${name}" to be an integer from 1 and up` };
    return { ok: true, value: [cutoffMeasure(family, k)] };
  }
  const printed = /^(P|recall|ndcg_cut|map_cut|success)_(\d+)$/.exec(name);
  if (printed) return resolveMeasures(`${printed[1]}.${printed[2]}`);
  const dot = name.indexOf('.');
  const base = dot === -1 ? name : name.slice(0, dot);
  const plain = plainMeasures.find((measure) => measure.name === (plainAliases[base] ?? base));
  const family = trecCutoffNames[base];
  if (dot === -1) {
    if (plain) return { ok: true, value: [plain] };
    const defaulted = family ?? bareCutoffNames[base];
    if (defaulted) return { ok: true, value: defaultCutoffs(defaulted).map((k) => cutoffMeasure(defaulted, k)) };
    return unknown(name);
  }
  const parameters = name.slice(dot + 1);
  if (base === 'ndcg') return gainMappedNdcg(parameters);
  if (family) {
    const cutoffs = parseCutoffs(parameters);
    if (!cutoffs.ok) return { ok: false, error: `${cutoffs.error} in "${name}"` };
    return { ok: true, value: cutoffs.value.map((k) => cutoffMeasure(family, k)) };
  }
  if (plain) {
    const cutoffVersion = plain.name === 'average_precision' ? ' (the cutoff version is map_cut.K or average_precision@K)' : '';
    return { ok: false, error: `Measure "${base}" takes no parameters${cutoffVersion}` };
  }
  return unknown(name);
}

/**
 * trec_eval's cutoff list: comma-separated, each read as a leading integer
 * (`23.4` is 23, as C's atol reads it), sorted, positive and distinct.
 */
export function parseCutoffs(text: string): Result<number[]> {
  const cutoffs: number[] = [];
  for (const part of text.split(',')) {
    const match = /^\s*([+-]?\d+)/.exec(part);
    if (!match) return { ok: false, error: `Expected a cutoff (a positive integer), got "${part}"` };
    cutoffs.push(Number(match[1]));
  }
  cutoffs.sort((a, b) => a - b);
  if ((cutoffs[0] as number) <= 0) return { ok: false, error: 'Expected every cutoff to be an integer from 1 and up' };
  if (cutoffs.some((k, index) => index > 0 && k === cutoffs[index - 1])) {
    return { ok: false, error: 'Expected distinct cutoffs, found a duplicate' };
  }
  return { ok: true, value: cutoffs };
}

function gainMappedNdcg(parameters: string): ResolvedMeasures {
  const gains = new Map<number, number>();
  for (const pair of parameters.split(',')) {
    const match = /^([+-]?\d+)=(.+)$/.exec(pair);
    const gain = match ? Number(match[2]) : Number.NaN;
    if (!match || !Number.isFinite(gain)) {
      return { ok: false, error: `Expected grade=gain pairs such as "ndcg.1=3,2=9", got "${parameters}"` };
    }
    if (!gains.has(Number(match[1]))) gains.set(Number(match[1]), gain);
  }
  const scheme: GainScheme = gains;
  return {
    ok: true,
    value: [plainMeasure(`ndcg.${parameters}`, `ndcg_${parameters}`, (r) => ndcg(r, scheme))],
  };
}

function unknown(name: string): ResolvedMeasures {
  return {
    ok: false,
    error:
      `Unknown measure "${name}". Known: num_q, num_ret, num_rel, num_rel_ret, map, map_cut.K, P.K, recall.K, ` +
      'ndcg, ndcg_cut.K, recip_rank, Rprec, success.K, runid; or precision@K, recall@K, ndcg@K, ' +
      'average_precision[@K], reciprocal_rank, r_precision, hit@K, document_recall',
  };
}
