import { Command } from 'commander';
import { JUDGE_CATALOG } from '../../shared/judges/catalog/index.js';
import { loadConfigFile, selectJudges } from '../../shared/config/index.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { describeScale } from '../../shared/judges/scale.js';
import { terminalText } from '../../shared/report-render/terminal-text.js';
import { judgeListingsSchema, type JudgeListing } from '../../shared/schema/judge-listing.js';
import { checkedJson } from '../checked-json.js';
import { assertReadableFile } from '../readable-file.js';
import { configProblems } from '../usage-error.js';

interface JudgesOptions {
  json?: boolean;
  config?: string;
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
    .option(
      '--config <file>',
      "also list the custom judges, model variants and ensembles of this config file (YAML or JSON), with each judge's own settings",
    )
    .action(async (options: JudgesOptions) => {
      const listings = (await judgesOf(options.config)).map(listingOf);
      process.stdout.write(options.json === true ? `${checkedJson(judgeListingsSchema, listings)}\n` : terminalText(formatTable(listings)));
    });
}

/** The catalog, each judge as the config sets it, then the config's own judges, variants and ensembles. */
async function judgesOf(configPath: string | undefined): Promise<JudgeDefinition[]> {
  if (configPath === undefined) return [...JUDGE_CATALOG];
  await assertReadableFile(configPath, 'config');
  const loaded = await loadConfigFile(configPath);
  if (!loaded.ok) throw configProblems(loaded.error);
  const everyDefined = selectJudges({ ...loaded.value, judges: undefined });
  const listed = loaded.value.judges === undefined ? [] : selectJudges(loaded.value);
  const byId = new Map<string, JudgeDefinition>();
  for (const judge of [...JUDGE_CATALOG, ...everyDefined, ...listed]) byId.set(judge.id, judge);
  return [...byId.values()];
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
    ...settingsOf(judge),
  };
}

function settingsOf(judge: JudgeDefinition): Pick<JudgeListing, 'settings' | 'members' | 'combine'> {
  if (judge.kind === 'ensemble') return { members: judge.members, combine: judge.combine };
  if (judge.kind === 'deterministic') return {};
  const client = judge.client ?? {};
  const settings: Record<string, string | number> = {
    ...(client.model === undefined ? {} : { model: client.model }),
    ...(client.baseUrl === undefined ? {} : { base_url: client.baseUrl }),
    ...(client.temperature === undefined ? {} : { temperature: client.temperature }),
    ...(client.maxTokens === undefined ? {} : { max_tokens: client.maxTokens }),
    ...(judge.repeat === undefined ? {} : { repeat: judge.repeat }),
  };
  return Object.keys(settings).length === 0 ? {} : { settings };
}

/** `model gpt-4o, repeat 3` after the description, where the config sets something for this judge alone. */
function settingsLine(listing: JudgeListing): string {
  const settings = Object.entries(listing.settings ?? {}).map(([key, value]) => `${key} ${String(value)}`);
  return settings.length === 0 ? '' : `\n    settings: ${settings.join(', ')}`;
}

const COLUMNS = ['id', 'kind', 'scope', 'assessment', 'scale', 'inputs'] as const;

/** Aligned columns, the description on its own indented line: it is too long to share a line. */
function formatTable(listings: readonly JudgeListing[]): string {
  const cellsOf = (listing: JudgeListing): string[] =>
    COLUMNS.map((column) => (column === 'inputs' ? listing.inputs.join(', ') : listing[column]));
  const header = COLUMNS.map((column) => column.toUpperCase());
  const rows = listings.map(cellsOf);
  const widths = COLUMNS.map((_, column) => Math.max(...[header, ...rows].map((cells) => cells[column]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
  const body = listings.map((listing) => `${line(cellsOf(listing))}\n    ${listing.description}${settingsLine(listing)}\n`);
  return `${line(header)}\n${body.join('')}`;
}
