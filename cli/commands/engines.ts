import { Command } from 'commander';
import { requestIdFor } from '../../shared/rows/content-ids.js';
import type { EngineAsk } from '../../shared/engines/ask-engines.js';
import { describeEngine, type EngineDescription } from '../../shared/engines/engine-description.js';
import { expandMatrix } from '../../shared/engines/engine-matrix.js';
import { loadConfigFile } from '../../shared/config/index.js';
import { terminalName } from '../../shared/report-render/terminal-text.js';
import { MAX_CONCURRENCY } from '../../shared/schema/work-limits.js';
import { countUpTo } from '../option-values.js';
import { assertReadableFile } from '../readable-file.js';
import { configProblems, UsageError, UsageProblems } from '../usage-error.js';

interface EnginesOptions {
  config?: string;
  query?: string;
  requestId?: string;
  concurrency: string;
}

/** How long `--query` waits for all engines, retries included. */
const DEADLINE_MS = 120_000;
const PREVIEW_LENGTH = 72;

/**
 * `assay engines`: the engines of a config file after matrix expansion, with
 * their connector and target (secrets masked); with `--query`, asks each one
 * once and prints its ranked hits and latency, or its error. The exit code is
 * 1 when an engine failed, so a smoke test of a sweep can gate on it.
 */
export function enginesCommand(): Command {
  return new Command('engines')
    .description('List the engines of a config file (matrix expanded); with --query, ask each one and print its hits')
    .option('--config <file>', 'config file (YAML or JSON) with an engines: list')
    .option('--query <text>', 'ask every engine this query and print the hits, latency or error')
    .option('--request-id <id>', 'the request id sent with --query (default: q- and a hash of the query, as for datasets)')
    .option('--concurrency <n>', `engines asked at once, 1 to ${MAX_CONCURRENCY}`, '4')
    .action(async (options: EnginesOptions) => {
      const concurrency = countUpTo('--concurrency', options.concurrency, MAX_CONCURRENCY);
      if (options.config === undefined)
        throw new UsageError('give the config file with --config FILE (its engines: list is what this command shows)');
      await assertReadableFile(options.config, 'config');
      const loaded = await loadConfigFile(options.config);
      if (!loaded.ok) throw configProblems(loaded.error);
      const configs = loaded.value.engines ?? [];
      if (configs.length === 0)
        throw new UsageError(
          `${options.config}: no engines: list (fix: add engines, each with a name and one connector key; see docs/engines.md)`,
        );
      const env = process.env;
      const descriptions = configs.flatMap(expandMatrix).map((variant) => describeEngine(variant, env));
      if (options.query === undefined) {
        process.stdout.write(listing(descriptions));
        return;
      }
      // The connectors pull in the AWS SDK, pg and the OpenSearch client: load them only when asked to call.
      const [{ expandEngines }, { askEngines }] = await Promise.all([
        import('../../shared/engines/create-engine.js'),
        import('../../shared/engines/ask-engines.js'),
      ]);
      const created = expandEngines(configs, env);
      if (!created.ok) throw new UsageProblems(created.error);
      const request = { query: options.query, request_id: options.requestId ?? requestIdFor(options.query) };
      try {
        const asks = await askEngines(created.value, request, { concurrency, deadline: AbortSignal.timeout(DEADLINE_MS) });
        process.stdout.write(descriptions.map((description) => answerBlock(description, asks[description.name])).join('\n'));
        if (Object.values(asks).some((ask) => !ask.ok)) process.exitCode = 1;
      } finally {
        await Promise.all(created.value.map((engine) => engine.close()));
      }
    });
}

function listing(descriptions: readonly EngineDescription[]): string {
  const rows = [
    ['ENGINE', 'CONNECTOR', 'TARGET'],
    ...descriptions.map(({ name, connector, target }) => [name, connector, target].map(terminalName)),
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return `${rows.map((row) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ')).join('\n')}\n`;
}

function answerBlock(description: EngineDescription, ask: EngineAsk | undefined): string {
  // Hits, answers and errors are what a live service sent: escaped, they cannot drive the terminal.
  const heading = terminalName(`${description.name} (${description.connector}, ${description.target})`);
  if (ask === undefined) return `${heading}\n  not asked\n`;
  if (!ask.ok) return `${heading}\n  error (${ask.error.kind}): ${terminalName(ask.error.message)}\n`;
  const { retrieved_context: hits, response, latency_ms, attempts } = ask.value;
  const lines = [
    `${heading}: ${hits.length} hit${hits.length === 1 ? '' : 's'} in ${latency_ms.toFixed(1)} ms${attempts > 1 ? ` (${attempts} attempts)` : ''}`,
  ];
  const ids = hits.map((hit) => terminalName(hit.doc_uri));
  const idWidth = Math.max(0, ...ids.map((id) => id.length));
  hits.forEach((hit, index) => {
    const score = hit.score === undefined ? '' : hit.score.toFixed(4);
    lines.push(
      `  ${String(hit.rank).padStart(3)}  ${(ids[index] ?? '').padEnd(idWidth)}  ${score.padStart(10)}  ${preview(hit.content)}`.trimEnd(),
    );
  });
  if (response !== undefined) lines.push(`  response: ${preview(response, 400)}`);
  return `${lines.join('\n')}\n`;
}

function preview(text: string | undefined, length = PREVIEW_LENGTH): string {
  if (text === undefined) return '';
  const flat = terminalName(text.replace(/\s+/g, ' ').trim());
  return flat.length <= length ? flat : `${flat.slice(0, length - 3)}...`;
}
