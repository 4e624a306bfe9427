import { Command } from 'commander';
import { baselineSuite } from '../../shared/compare/baseline-suite.js';
import { setBaseline } from '../../shared/compare/baselines.js';
import { terminalName } from '../../shared/report-render/terminal-text.js';
import { runId as checkedRunId, suiteName } from '../option-values.js';
import { existingStore, type StoreOptions } from '../store-option.js';
import { UsageError } from '../usage-error.js';

interface BaselineOptions extends StoreOptions {
  suite?: string;
}

/**
 * `assay baseline set RUN [--suite S]`: the run later runs of the suite are
 * compared with (without one, each run is compared with the previous). The
 * suite is the run's own, read from its manifest; `--suite` is for a run
 * whose manifest is gone, and must agree with it otherwise.
 */
export function baselineCommand(): Command {
  const baseline = new Command('baseline').description("Manage a suite's baseline run");
  baseline
    .command('set')
    .description('Make a reported run the baseline that later runs of its suite are compared with')
    .argument('<run>', 'run id (r-...)')
    .option('--suite <name>', 'the suite of the run (default: the one its manifest names, else default)')
    .option('--store <folder>', 'the local store folder (assay run --store; default .assay)')
    .option('--bucket <name>', "a deployed stack's bucket instead of the local store")
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint: its bucket "assay" (as assay run --aws-endpoint uses), or --bucket there')
    .action(async (runId: string, options: BaselineOptions) => {
      checkedRunId(runId);
      if (options.suite !== undefined) suiteName(options.suite);
      // As every command that reads a store takes it: --aws-endpoint alone is the bucket `assay run --aws-endpoint` wrote.
      const { store } = await existingStore(options);
      const suite = await baselineSuite(store, runId, options.suite);
      if (!suite.ok) throw new UsageError(suite.error);
      const result = await setBaseline(store, suite.value, runId, new Date());
      if (!result.ok) throw new UsageError(result.error);
      process.stdout.write(`baseline of suite ${terminalName(suite.value)}: ${runId}\n`);
    });
  for (const command of baseline.commands) command.exitOverride();
  return baseline;
}
