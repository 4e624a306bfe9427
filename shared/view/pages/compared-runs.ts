import type { RunComparison } from '../../schema/compare-json.js';
import type { CaseLine } from '../../schema/report.js';
import type { CompareChoice } from '../compare-choice.js';
import type { QueryChange } from '../compare-stored.js';
import type { StoredRun } from '../view-data.js';

/** What the compare page shows once both runs are found. */
export interface ComparedRuns {
  readonly a: StoredRun;
  readonly b: StoredRun;
  readonly comparison: RunComparison;
  /** The engine and metric of the per-query changes, and why; undefined when the runs have none in common. */
  readonly choice: CompareChoice | undefined;
  readonly changes: PageOfChanges | undefined;
  readonly lists: { readonly a: ReadonlyMap<string, CaseLine>; readonly b: ReadonlyMap<string, CaseLine> };
}

/** A page of the chosen engine's per-query changes: losses first (`losses` of them in all), then gains. */
export interface PageOfChanges {
  readonly page: readonly QueryChange[];
  readonly total: number;
  readonly losses: number;
  readonly unchanged: number;
  readonly offset: number;
  readonly limit: number;
}
