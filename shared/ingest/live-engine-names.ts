import type { EngineConfig } from '../engines/engine-config.js';
import { expandMatrix } from '../engines/engine-matrix.js';

/**
 * The names of a config's live engines, matrix expanded, without building
 * them: for the manifest. Apart from live-engines.ts so that ingest, which
 * only names the engines, does not load (or bundle) their connectors.
 */
export function liveEngineNames(configs: readonly EngineConfig[] | undefined): string[] {
  return (configs ?? []).flatMap(expandMatrix).map((variant) => variant.name);
}
