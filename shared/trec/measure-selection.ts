import type { Result } from '../schema/result.js';
import { resolveMeasures, type Measure } from '../metrics/registry.js';

/**
 * Which measures an `ir-metrics` run prints, and in what order, following
 * trec_eval's `-m` rules:
 * - measures print in trec_eval's fixed order, whatever the command-line order;
 * - `-m P.5,10` sets the cutoffs of a family; `-m P` uses the defaults; when a
 *   family is named twice with parameters, the first list wins (trec_eval's
 *   behaviour, kept so scripts print the same rows);
 * - `official` (the default without -m) and `all_trec` select the supported
 *   members of trec_eval's sets of those names.
 * assay's names (`precision@5`, `ndcg@10`) select the same families.
 */

/** A collection-level value that is not computed per query. */
export type CollectionMeasure = 'runid' | 'num_q';

export type SelectedMeasure = { kind: 'collection'; name: CollectionMeasure } | { kind: 'query'; measure: Measure };

/** trec_eval's measure order, restricted to the measures assay implements. */
const TREC_ORDER = [
  'runid',
  'num_q',
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'map',
  'Rprec',
  'recip_rank',
  'P',
  'recall',
  'ndcg',
  'ndcg_cut',
  'map_cut',
  'success',
] as const;
type TrecFamily = (typeof TREC_ORDER)[number];

const OFFICIAL: readonly TrecFamily[] = ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'Rprec', 'recip_rank', 'P'];
const NICKNAMES: Record<string, readonly TrecFamily[]> = { official: OFFICIAL, all_trec: TREC_ORDER };

/** trec_eval family of each name written before `@K`. */
const FAMILY_OF_CUTOFF_NAME: Record<string, TrecFamily> = {
  precision: 'P',
  recall: 'recall',
  ndcg: 'ndcg_cut',
  average_precision: 'map_cut',
  map: 'map_cut',
  ap: 'map_cut',
  hit: 'success',
  P: 'P',
  ndcg_cut: 'ndcg_cut',
  map_cut: 'map_cut',
  success: 'success',
};

/** trec_eval family of each assay name written alone (or with trec_eval parameters). */
const FAMILY_OF_NAME: Record<string, TrecFamily> = {
  precision: 'P',
  hit: 'success',
  average_precision: 'map',
  ap: 'map',
  reciprocal_rank: 'recip_rank',
  mrr: 'recip_rank',
  rr: 'recip_rank',
  r_precision: 'Rprec',
};

export function selectMeasures(requested: readonly string[]): Result<SelectedMeasure[]> {
  const chosen = new Map<TrecFamily, string | undefined>();
  const names = requested.length === 0 ? ['official'] : requested;
  for (const name of names) {
    const parsed = parseRequest(name);
    if (!parsed.ok) return parsed;
    for (const { family, parameters } of parsed.value) {
      if (!chosen.has(family) || chosen.get(family) === undefined) chosen.set(family, parameters);
    }
  }
  const measures: SelectedMeasure[] = [];
  for (const family of TREC_ORDER) {
    if (!chosen.has(family)) continue;
    const expanded = expandFamily(family, chosen.get(family));
    if (!expanded.ok) return expanded;
    measures.push(...expanded.value);
  }
  return { ok: true, value: measures };
}

/** The measure families a requested name stands for (several for a nickname), each with its parameters. */
type ParsedRequest = Result<{ family: TrecFamily; parameters: string | undefined }[]>;

function parseRequest(name: string): ParsedRequest {
  const nickname = NICKNAMES[name];
  if (nickname) return { ok: true, value: nickname.map((family) => ({ family, parameters: undefined })) };
  const at = /^([A-Za-z_]+)@(\d+)$/.exec(name);
  const cutoffFamily = at ? FAMILY_OF_CUTOFF_NAME[at[1] as string] : undefined;
  if (at && cutoffFamily) return { ok: true, value: [{ family: cutoffFamily, parameters: at[2] }] };
  const printed = /^(P|recall|ndcg_cut|map_cut|success)_(\d+)$/.exec(name);
  if (printed) return { ok: true, value: [{ family: printed[1] as TrecFamily, parameters: printed[2] }] };
  const dot = name.indexOf('.');
  const base = dot === -1 ? name : name.slice(0, dot);
  const parameters = dot === -1 ? undefined : name.slice(dot + 1);
  const family = (TREC_ORDER as readonly string[]).includes(base) ? (base as TrecFamily) : FAMILY_OF_NAME[base];
  if (family === undefined || (parameters !== undefined && !['P', 'recall', 'ndcg', 'ndcg_cut', 'map_cut', 'success'].includes(family))) {
    if (family === undefined && resolveMeasures(name).ok) {
      return { ok: false, error: `Measure "${name}" has no trec_eval counterpart; use it in reports, not in ir-metrics` };
    }
    return {
      ok: false,
      error:
        `Unsupported measure "${name}". ir-metrics computes: num_q, num_ret, num_rel, num_rel_ret, map, map_cut.K, ` +
        'P.K, recall.K, ndcg, ndcg_cut.K, recip_rank, Rprec, success.K, runid (and the nicknames official, all_trec)',
    };
  }
  if (parameters === '') return { ok: false, error: `Expected parameters after "${base}.", as in ${base}.5,10` };
  return { ok: true, value: [{ family, parameters }] };
}

function expandFamily(family: TrecFamily, parameters: string | undefined): Result<SelectedMeasure[]> {
  if (family === 'runid' || family === 'num_q') return { ok: true, value: [{ kind: 'collection', name: family }] };
  const resolved = resolveMeasures(parameters === undefined ? family : `${family}.${parameters}`);
  if (!resolved.ok) return resolved;
  return { ok: true, value: resolved.value.map((measure) => ({ kind: 'query', measure })) };
}
