import { Command } from 'commander';
import { historyKeys } from '../../shared/history/history-keys.js';
import { allowedHostName } from '../../shared/view/host-check.js';
import { existingStore, type StoreOptions } from '../store-option.js';
import { UsageError } from '../usage-error.js';
import { startViewServer } from '../view/view-server.js';

interface ViewOptions extends StoreOptions {
  port: string;
  host: string;
  allowHost: string[];
}

/**
 * `assay view`: a local web app over a store (a folder or a bucket): the
 * suites, each suite's history, each run's report and cases, and the
 * comparison of two runs, as pages and as a JSON API. The URL is the first
 * line on stdout; Ctrl-C (SIGINT) or SIGTERM stops it, and it exits 0.
 * Listening beyond loopback is said on stderr before anything is served.
 */
export function viewCommand(): Command {
  return new Command('view')
    .description("Browse a store's suites, their history, runs and comparisons in a local web app")
    .option('--store <folder>', 'local store folder (default: .assay)')
    .option('--bucket <name>', "a deployed stack's bucket instead of a local folder")
    .option('--aws-endpoint <url>', 'an S3-compatible endpoint: its bucket "assay" (as assay run --aws-endpoint uses), or --bucket there')
    .option('--port <number>', 'port to listen on; 0 picks a free one', '8750')
    .option(
      '--host <address>',
      'address to listen on; another than loopback lets other machines in to read the whole store (said on stderr)',
      '127.0.0.1',
    )
    .option(
      '--allow-host <name>',
      'a host name (or address) requests may be for besides loopback and the address listened on; repeatable',
      collect,
      [],
    )
    .action(async (options: ViewOptions) => {
      const port = Number(options.port);
      if (!/^\d+$/.test(options.port) || port > 65_535)
        throw new UsageError(`--port got "${options.port}"; expected an integer from 0 to 65535 (0 picks a free port)`);
      const allowedHosts = options.allowHost.map((given) => {
        const name = allowedHostName(given);
        if (!name.ok) throw new UsageError(`--allow-host got ${name.error}`);
        return name.value;
      });
      const { store, name } = await existingStore(options);
      // One listing before serving: a bucket that is not there, or credentials it refuses, stop the command here rather than fail every page.
      for await (const _key of store.list(historyKeys.cardsPrefix)) break;
      const server = await startViewServer({
        store,
        storeName: name,
        host: options.host,
        port,
        allowedHosts,
        log: (line) => process.stderr.write(`${line}\n`),
      }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE')
          throw new UsageError(`--port ${port} is in use on ${options.host}; choose another, or --port 0 for a free one`);
        if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EACCES') {
          throw new UsageError(`cannot listen on ${options.host}:${port} (${error.code}); choose another --host or --port`);
        }
        throw error;
      });
      if (server.warning !== undefined) process.stderr.write(`${server.warning}\n`);
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(`assay view: serving the ${name} at ${server.url}; Ctrl-C stops it\n`);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      });
      await server.close();
      process.stderr.write(`assay view: stopped (${signal})\n`);
    });
}

/** Commander's way to take an option more than once. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
