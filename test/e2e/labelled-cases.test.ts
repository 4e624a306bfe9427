import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * A labelled case is one with relevance labels (docs/datasets.md): the cases
 * the ground-truth metrics are computed on. `assay validate` counts them the
 * way the report's ground-truth averages do, and counts apart the cases that
 * carry only an expected response or human verdicts.
 */

const CHUNKS = [
  { doc_uri: 'kb/rotate', content: 'Create a second key, then delete the old one.' },
  { doc_uri: 'kb/mfa', content: 'Multi-factor authentication adds a code.' },
];
const row = (id: string, extra: Record<string, unknown>) =>
  JSON.stringify({
    request_id: id,
    request: `question ${id}`,
    engine: 'bm25',
    retrieved_context: CHUNKS,
    response: 'An answer.',
    ...extra,
  });
/** Two cases with relevance labels (one with an expected response too), two with an expected response only, one with a human verdict only, one with nothing. */
const DATASET = [
  row('q1', { expected_retrieved_context: [{ doc_uri: 'kb/rotate', grade: 3 }], expected_response: 'Rotate it.' }),
  row('q2', { expected_retrieved_context: [{ doc_uri: 'kb/mfa', grade: 1 }] }),
  row('q3', { expected_response: 'Use two keys.' }),
  row('q4', { expected_response: 'Delete the old key.' }),
  row('q5', { human_verdicts: { correctness: 'yes' } }),
  row('q6', {}),
].join('\n');

let folder: TempFolder;
let dataset: string;
beforeAll(async () => {
  folder = await createTempFolder();
  dataset = await folder.write('references.jsonl', `${DATASET}\n`);
});
afterAll(async () => {
  await folder.remove();
});

describe('labelled cases', () => {
  it('assay validate counts the cases with relevance labels as labelled, and names the other references apart', async () => {
    // Act
    const text = await runBuiltCli(['validate', dataset]);
    const json = await runBuiltCli(['validate', dataset, '--json']);

    // Assess
    expect(text.exitCode).toBe(0);
    expect(text.stdout.split('\n')).toEqual([
      'rows: 6',
      'cases: 6',
      'engines: 1',
      '  bm25: 6 cases',
      'labelled cases: 2',
      'cases with an expected response: 3',
      'cases with human verdicts: 1',
      'errors: 0',
      '',
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({ labelled_cases: 2, expected_response_cases: 3, human_verdict_cases: 1 });
  });

  it("counts as many labelled cases as the report's ground-truth averages run over", async () => {
    // Prepare
    const out = join(folder.path, 'out');

    // Act: no judge key, nothing asks for an LLM judge: the lexical judge
    const result = await runBuiltCli(['run', dataset, '--store', join(folder.path, 'store'), '--out', out]);

    // Assess
    expect(result.exitCode).toBe(0);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.engines.bm25?.['retrieval/ground_truth/ndcg@10/count']).toBe(2);
  });
});
