import { Command } from 'commander';
import { historyKeys } from '../../shared/history/history-keys.js';
import { rebuildHistory } from '../../shared/history/rebuild-history.js';
import { suiteName } from '../option-values.js';
import { existingStore, type StoreOptions } from '../store-option.js';
import { UsageError } from '../usage-error.js';

interface RebuildOptions extends StoreOptions {
  suite: string;
}

/** `assay history rebuild --suite S`: a suite's history made again from its reports. */
export function historyCommand(): Command {
  const history = new Command('history').description("Manage a suite's history (reports/<suite>/history.json and history.html)");
  history
    .command('rebuild')
    .description(
      "Make a suite's history again from its reports: for reports written before the history existed, or a history edited by hand",
    )
    .option('--suite <name>', 'the suite', 'default')
    .option('--store <folder>', 'local store folder (default: .assay)')
    .option('--bucket <name>', "a deployed stack's bucket instead of a local folder")
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint: its bucket "assay" (as assay run --aws-endpoint uses), or --bucket there')
    .action(async (options: RebuildOptions) => {
      const suite = suiteName(options.suite);
      const { store, name } = await existingStore(options);
      const rebuilt = await rebuildHistory(store, suite);
      if (rebuilt === undefined) throw new UsageError(`Suite ${suite} has no report in the ${name}; check --suite and the store`);
      for (const entry of rebuilt.unreadableReports)
        process.stderr.write(`assay history rebuild: left out ${entry.key}: ${entry.reason}\n`);
      if (rebuilt.removedRows > 0)
        process.stderr.write(
          `assay history rebuild: removed ${rebuilt.removedRows} ${rebuilt.removedRows === 1 ? 'row' : 'rows'} of runs without a report\n`,
        );
      const runs = rebuilt.history.runs.length;
      process.stdout.write(
        `history of suite ${suite}: ${runs} ${runs === 1 ? 'run' : 'runs'} (${historyKeys.json(suite)}, ${historyKeys.html(suite)})\n`,
      );
    });
  for (const command of history.commands) command.exitOverride();
  return history;
}
