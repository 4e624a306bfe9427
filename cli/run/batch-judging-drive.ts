import { batchProviderOf } from '../../shared/batch-providers/batch-provider-of.js';
import { batchSettingsOf } from '../../shared/judge-client/batch-settings.js';
import type { JudgeClientSection } from '../../shared/judge-client/judge-client-schema.js';
import type { JudgeEnvironment } from '../../shared/judge-client/judge-provider.js';
import type { Judging } from '../../shared/worker/evaluate-case.js';
import { callsModel } from '../../shared/worker/judging.js';
import { UsageError } from '../usage-error.js';
import { batchStepText } from './batch-judging-progress.js';
import type { BatchJudgingDrive } from './drive-run.js';
import type { Progress } from './progress.js';

/**
 * The batch side of a local drive, for a run whose config judges in batch
 * jobs and whose judging calls a model (a run judged by the lexical judge,
 * or by deterministic judges alone, has no job to make): the provider's
 * batch API, and the steps told on the progress line's stream. What each
 * step means for the run is decided by the run's check (shared/reduce/reduce.ts).
 */
export async function batchJudgingDriveOf(
  judge: JudgeClientSection,
  environment: JudgeEnvironment,
  judging: Judging,
  detach: boolean,
  tracker: Progress,
  now: () => Date,
): Promise<BatchJudgingDrive | undefined> {
  if (batchSettingsOf(judge.batch) === undefined || !callsModel(judging)) return undefined;
  const chosen = await batchProviderOf(judge, environment);
  if (!chosen.ok) throw new UsageError(`judge.batch: ${chosen.error}`);
  return {
    provider: chosen.value,
    detach,
    onStep: (step) => {
      const text = batchStepText(step, now());
      if (text !== undefined) tracker.note(text);
    },
  };
}
