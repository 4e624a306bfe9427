import type { RunConfig } from '../shared/config/index.js';
import { batchProviderOf } from '../shared/batch-providers/batch-provider-of.js';
import type { BatchProvider } from '../shared/batch-providers/batch-provider.js';
import type { ReducerBatchJudging } from '../shared/reduce/reduce.js';
import { lambdaJudgeEnvironment, type LambdaDependencies } from './lambda-environment.js';
import { judgeKeyReader } from './secret-readers.js';

/**
 * The reducer's side of batch judging on Lambda: a batch-judged run's checks
 * submit its jobs, poll and collect them, with the judge key of the stack's
 * judge secret (read here only for such a run, and again once stale, as the
 * judge worker reads it). A run whose provider cannot judge (no key) makes no
 * job: its cases were judged by the lexical judge.
 */
export function lambdaBatchJudging({ environment, cases }: Pick<LambdaDependencies, 'environment' | 'cases'>): ReducerBatchJudging {
  const judgeKey = judgeKeyReader(environment.ASSAY_JUDGE_SECRET_ARN);
  return {
    cases,
    async providerFor(config: RunConfig): Promise<BatchProvider | undefined> {
      const chosen = await batchProviderOf(config.judge, lambdaJudgeEnvironment(environment, await judgeKey()));
      return chosen.ok ? chosen.value : undefined;
    },
  };
}
