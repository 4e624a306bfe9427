import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseLineSchema, reportSchema } from '../../shared/schema/report.js';
import { useCatalogJudgeRun } from '../support/catalog-judge-run.js';
import { runCli } from '../support/run-cli.js';

const CASES = 30;
const RELEVANCE = 'response/llm_judged/relevance_to_query/rating';
const RECALL = 'retrieval/ground_truth/document_recall';

/** 30 distinct cases (so no judgment comes from another's cache entry), each judged "yes" by the oracle and with a label for document recall. */
function dataset(): string {
  return Array.from({ length: CASES }, (_, index) =>
    JSON.stringify({
      request_id: `q${String(index).padStart(2, '0')}`,
      engine: 'bm25',
      request: `How do I rotate key number ${index}?`,
      response: `Rotate key ${index} by creating a second key, then rotate the clients over to it.`,
      retrieved_context: [{ doc_uri: `kb/key-${index}`, content: `Key ${index} can be rotated.` }],
      expected_retrieved_context: [{ doc_uri: `kb/key-${index}` }],
    }),
  ).join('\n');
}

/** Judge tokens at USD 1000 a million: one judgment of about 100 tokens costs about USD 0.1, past the ceiling of 0.05. */
const CONFIG = `
judges: [relevance_to_query, document_recall]
judge:
  prices:
    currency: USD
    models:
      judge-model: { input_per_million: 1000, output_per_million: 1000 }
run:
  max_judge_cost: 0.05
thresholds:
  ${RELEVANCE}: "yes"
  ${RECALL}: 1
`;

const run = useCatalogJudgeRun();

describe('assay run with run.max_judge_cost', () => {
  it('stops judging once the spend passes the ceiling, evaluates every case still, and reports how many were judged', async () => {
    // Prepare
    const input = await run.folder.write('cases.jsonl', dataset());
    const config = await run.folder.write('assay.yaml', CONFIG);
    const out = join(run.folder.path, 'out');

    // Act: one case batch (10 cases) in flight at a time
    const result = await runCli([
      'run',
      input,
      '--config',
      config,
      '--concurrency',
      '1',
      '--fail-under',
      '1',
      '--store',
      join(run.folder.path, 'store'),
      '--out',
      out,
    ]);

    // Assess: every case is in cases.jsonl, with its ground truth; the skipped ones are marked and have no judge metric
    expect(result.exitCode).toBe(0);
    const lines = (await readFile(join(out, 'cases.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => caseLineSchema.parse(JSON.parse(line)));
    expect(lines).toHaveLength(CASES);
    const skipped = lines.filter((line) => line.judging_skipped === 'max_judge_cost');
    const judged = lines.filter((line) => line.judging_skipped === undefined);
    expect(lines.every((line) => line.metrics[RECALL] === 1)).toBe(true);
    expect(skipped.every((line) => !(RELEVANCE in line.metrics))).toBe(true);
    expect(judged.every((line) => line.metrics[RELEVANCE] === 'yes')).toBe(true);
    // The ceiling is passed by the first judgment; the cases already in flight with it (at most one batch of 10) finish
    expect(judged.length).toBeGreaterThanOrEqual(1);
    expect(judged.length).toBeLessThanOrEqual(10);
    // One judge call per judged case, none for a skipped one
    expect(run.server.log).toHaveLength(judged.length);

    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: CASES, evaluated: CASES, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.judge_budget).toEqual({
      max_judge_cost: 0.05,
      currency: 'USD',
      reached: true,
      judged_cases: judged.length,
      skipped_cases: CASES - judged.length,
    });
    expect(report.judges.relevance_to_query?.calls).toBe(judged.length);
    expect(report.judge_cost?.total).toBeGreaterThan(0.05);
    expect(report.judge_cost?.unpriced_models).toEqual([]);
    // Judge metrics are averaged over the judged cases; the recall threshold holds every case to the gate, the relevance one only the judged
    const bm25 = report.engines.bm25 ?? {};
    expect(bm25[`${RELEVANCE}/count`]).toBe(judged.length);
    expect(bm25[`${RELEVANCE}/percentage`]).toBe(1);
    expect(bm25[`${RECALL}/count`]).toBe(CASES);
    expect(bm25['thresholds/pass/count']).toBe(CASES);
    expect(bm25['thresholds/pass/average']).toBe(1);
    const text = `The judge spend reached run.max_judge_cost USD 0.0500: ${judged.length} case${judged.length === 1 ? '' : 's'} judged, ${CASES - judged.length} evaluated without their LLM judges`;
    expect(result.stderr).toContain(`assay: ${text}`);
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain(text);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain(text);
  });
});
