import { callsJudges, judgesForRun, type ConfigFile } from '../config/index.js';
import { chooseJudgeBackend, type JudgeEnvironment } from '../scoring/judge-backend.js';
import type { ObjectStore } from '../ports/object-store.js';

/** The judge line of a run that judges nothing: its report has the ground-truth metrics only. */
export const NO_JUDGES = 'no judges: ground-truth metrics only (the config lists judges: [])';

/**
 * The `judge` line of a run's manifest and report, written by ingest for
 * judge workers elsewhere (the deployed stack): what those workers will do
 * with the same config and settings. A run whose judges call no judge server
 * says so instead of naming a server it never calls (the worker does not
 * even read the judge key for it); otherwise it is the backend's summary,
 * "cached" when the judge cache lives in `cache` (the run's bucket, where the
 * deployed worker keeps it).
 */
export function runJudgeSummary(config: ConfigFile, environment: JudgeEnvironment, cache: ObjectStore | undefined): string {
  const judges = judgesForRun(config, 'llm').judges;
  if (callsJudges(config)) return chooseJudgeBackend(config, environment, cache, undefined, judges).summary;
  if (judges.length === 0) return NO_JUDGES;
  return `no judge calls: deterministic judges only (${judges.map((judge) => judge.id).join(', ')}), computed from the labels`;
}
