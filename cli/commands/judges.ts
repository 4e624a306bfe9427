import { Command } from 'commander';
import { JUDGE_CATALOG } from '../../shared/judges/catalog/index.js';
import { loadJudgeConfig, selectJudges } from '../../shared/judges/judge-config.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { describeScale } from '../../shared/judges/scale.js';
import { assertReadableFile } from '../readable-file.js';
import { UsageError } from '../usage-error.js';

interface JudgesOptions {
  json?: boolean;
  config?: string;
}

/** One judge as `assay judges` shows it. */
interface JudgeListing {
  id: string;
  scope: string;
  kind: string;
  assessment: string;
  inputs: readonly string[];
  scale: string;
  description: string;
}

/**
 * `assay judges`: the built-in judges, what each assesses, the inputs a case
 * needs for it, and its scale, so a user can pick ids for the config's
 * `judges` list without reading the source.
 */
export function judgesCommand(): Command {
  return new Command('judges')
    .description('List the built-in judges: id, scope, assessment, inputs, scale and description')
    .option('--json', 'print [{"id", "scope", "kind", "assessment", "inputs", "scale", "description"}] as JSON')
    .option('--config <file>', 'also list the custom judges of this config file (YAML or JSON)')
    .action(async (options: JudgesOptions) => {
      const listings = [...JUDGE_CATALOG, ...(await customJudges(options.config))].map(listingOf);
      process.stdout.write(options.json === true ? `${JSON.stringify(listings, null, 2)}\n` : formatTable(listings));
    });
}

async function customJudges(configPath: string | undefined): Promise<JudgeDefinition[]> {
  if (configPath === undefined) return [];
  await assertReadableFile(configPath, 'config');
  const loaded = await loadJudgeConfig(configPath);
  if (!loaded.ok) throw new UsageError(loaded.error);
  const builtIn = new Set(JUDGE_CATALOG.map((judge) => judge.id));
  return selectJudges({ ...loaded.config, judges: undefined }).filter((judge) => !builtIn.has(judge.id));
}

function listingOf(judge: JudgeDefinition): JudgeListing {
  return {
    id: judge.id,
    scope: judge.scope,
    kind: judge.kind,
    assessment: judge.assessment,
    inputs: judge.inputs,
    scale: describeScale(judge.scale),
    description: judge.description,
  };
}

const COLUMNS = ['id', 'kind', 'scope', 'assessment', 'scale', 'inputs'] as const;

/** Aligned columns, the description on its own indented line: it is too long to share a line. */
function formatTable(listings: readonly JudgeListing[]): string {
  const rows = listings.map((listing) => COLUMNS.map((column) => (column === 'inputs' ? listing.inputs.join(', ') : listing[column])));
  const header = COLUMNS.map((column) => column.toUpperCase());
  const widths = COLUMNS.map((_, index) => Math.max(header[index]!.length, ...rows.map((row) => row[index]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index]!))).join('  ');
  const body = listings.map((listing, index) => `${line(rows[index]!)}\n    ${listing.description}\n`);
  return `${line(header)}\n${body.join('')}`;
}
