import { batchProviderOf } from '../../shared/judge-client/batch/batch-provider-of.js';
import { batchSettingsOf } from '../../shared/judge-client/batch/batch-settings.js';
import type { JudgeClientSection } from '../../shared/judge-client/judge-client-schema.js';
import type { JudgeEnvironment } from '../../shared/judge-client/judge-provider.js';
import { UsageError } from '../usage-error.js';
import { batchStepText } from './batch-progress.js';
import type { BatchDrive } from './drive-run.js';
import type { Progress } from './progress.js';

/**
 * The batch side of a local drive, for a run whose config judges in batch
 * jobs and whose judges call a model (a run judged by the lexical judge, for
 * lack of a key, has no job to make): the provider's batch API, the
 * config's batch settings, and the steps told on the progress line's stream.
 */
export async function batchDriveOf(
  config: { readonly judge: JudgeClientSection; readonly run: { readonly max_judge_cost?: number | undefined } },
  environment: JudgeEnvironment,
  callsModel: boolean,
  detach: boolean,
  tracker: Progress,
  now: () => Date,
): Promise<BatchDrive | undefined> {
  const { judge } = config;
  const settings = batchSettingsOf(judge.batch);
  if (settings === undefined || !callsModel) return undefined;
  const chosen = await batchProviderOf(judge, environment);
  if (!chosen.ok) throw new UsageError(`judge.batch: ${chosen.error}`);
  const maxCost = config.run.max_judge_cost;
  return {
    provider: chosen.value,
    settings,
    ...(maxCost === undefined || judge.prices === undefined ? {} : { ceiling: { maxCost, prices: judge.prices } }),
    detach,
    onStep: (step) => {
      if (step.kind === 'requeued' || (step.kind === 'below-minimum' && step.action === 'online')) tracker.casesRequeued(step.cases);
      const text = batchStepText(step, now());
      if (text !== undefined) tracker.note(text);
    },
  };
}
