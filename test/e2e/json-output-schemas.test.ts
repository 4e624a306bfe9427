import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { runStatusJsonSchema } from '../../shared/operations/run-status-json.js';
import { agreementReportSchema, judgeRankingReportSchema } from '../../shared/schema/agreement.js';
import { compareJsonSchema } from '../../shared/schema/compare-json.js';
import { irMetricsRunJsonSchema, irMetricsRunsJsonSchema } from '../../shared/schema/ir-metrics-json.js';
import { judgeListingsSchema } from '../../shared/schema/judge-listing.js';
import { validationJsonSchema } from '../../shared/schema/validation-json.js';
import { runBuiltCli } from '../support/built-cli.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * Every command's `--json`, as a user's script reads it: the printed bytes
 * parse with the schema exported for them, and the schema leaves nothing out
 * (what it parses is all that was printed). One run of the example dataset
 * gives `status` and `compare` something to read.
 */
const EXAMPLES = join(REPOSITORY_ROOT, 'examples');
const TREC = join(EXAMPLES, 'trec');
let folder: TempFolder;
let runId = '';

beforeAll(async () => {
  folder = await createTempFolder();
  const dataset = join(EXAMPLES, 'datasets', 'search-assistant.jsonl');
  const run = await runBuiltCli(['run', dataset, '--store', join(folder.path, 'store'), '--out', join(folder.path, 'report')]);
  if (run.exitCode !== 0) throw new Error(`assay run failed: ${run.stderr}`);
  runId = (JSON.parse(await readFile(join(folder.path, 'report', 'report.json'), 'utf8')) as { run_id: string }).run_id;
  await folder.write('bad.jsonl', '{"request_id": "q1", "request": "what"}\n{"retrieved_context": "not a list"}\nnot json\n');
});
afterAll(() => folder.remove());

const agreement = ['agreement', '--human', join(TREC, 'qrels.txt')];
const runs = ['--run', join(TREC, 'run-bm25.txt'), '--run', join(TREC, 'run-dense.txt')];

const commands: readonly (readonly [string, () => readonly string[], z.ZodType, number])[] = [
  ['status', () => ['status', runId, '--store', join(folder.path, 'store'), '--json'], runStatusJsonSchema, 0],
  ['validate', () => ['validate', join(EXAMPLES, 'datasets', 'support.jsonl'), '--json'], validationJsonSchema, 0],
  ['validate with bad rows', () => ['validate', join(folder.path, 'bad.jsonl'), '--json'], validationJsonSchema, 1],
  ['judges', () => ['judges', '--config', join(EXAMPLES, 'configs', 'judge-panel.yaml'), '--json'], judgeListingsSchema, 0],
  [
    'compare',
    () => ['compare', join(folder.path, 'report'), join(folder.path, 'report'), '--json', '--min-labelled', '3'],
    compareJsonSchema,
    0,
  ],
  ['ir-metrics', () => ['ir-metrics', '--json', join(TREC, 'qrels.txt'), join(TREC, 'run-bm25.txt')], irMetricsRunJsonSchema, 0],
  [
    'ir-metrics with several runs',
    () => ['ir-metrics', '--json', join(TREC, 'qrels.txt'), join(TREC, 'run-bm25.txt'), join(TREC, 'run-dense.txt')],
    irMetricsRunsJsonSchema,
    0,
  ],
  ['agreement', () => [...agreement, '--judge', join(TREC, 'qrels-llm.txt'), ...runs, '--json'], agreementReportSchema, 0],
  [
    'agreement ranking judges',
    () => [...agreement, '--judge', `llm=${join(TREC, 'qrels-llm.txt')}`, '--judge', `human=${join(TREC, 'qrels.txt')}`, ...runs, '--json'],
    judgeRankingReportSchema,
    0,
  ],
];

describe('the JSON every command prints', () => {
  it.each(commands)('%s: parses with its schema, which holds every field', async (_name, args, schema, exitCode) => {
    // Act
    const outcome = await runBuiltCli(args());

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(exitCode);
    const printed: unknown = JSON.parse(outcome.stdout);
    const parsed = schema.safeParse(printed);
    expect(parsed.error).toBeUndefined();
    expect(parsed.data).toStrictEqual(printed);
  });

  it('gives the corrected estimates of assay agreement in topics, the unit they count', async () => {
    // Act
    const outcome = await runBuiltCli([...agreement, '--judge', join(TREC, 'qrels-llm.txt'), ...runs, '--min-labelled', '3', '--json']);

    // Assess: 4 topics, all labelled, so every estimate has an interval
    const report = agreementReportSchema.parse(JSON.parse(outcome.stdout));
    expect(report.estimates?.map((estimate) => [estimate.run, estimate.unit, estimate.cases, estimate.labelled])).toEqual([
      ['bm25', 'topics', 4, 4],
      ['dense', 'topics', 4, 4],
    ]);
    expect(report.differences?.[0]).toMatchObject({ runs: ['bm25', 'dense'], unit: 'topics', population: 'superpopulation', level: 0.95 });
  });
});
