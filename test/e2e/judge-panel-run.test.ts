import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type ChatRequest, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * examples/configs/judge-panel.yaml run end to end by `assay run` (the built bin) against the
 * test server: model variants, an ensemble, a repeated judge and a per-chunk
 * custom retrieval judge, down to the names the report aggregates them under.
 * The server answers as the catalog oracle, except that `large-model` grades
 * every chunk 3.
 */
const CONFIG = join(import.meta.dirname, '..', '..', 'examples', 'configs', 'judge-panel.yaml');
const ROTATE = 'Rotate access keys: create a second key, rotate clients to it, then rotate the old one out.';
const BILLING = 'Billing alarms notify you when charges exceed a threshold.';

let folder: TempFolder;
let server: OpenAiTestServer;
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({
    oracle: (request: ChatRequest, index) =>
      request.model === 'large-model' ? { json: { rationale: 'all of it', rating: 3 } } : catalogOracle(request, index),
  });
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

async function run(out: string) {
  const row = (engine: string, texts: string[]) => ({
    request_id: 'q1',
    engine,
    request: 'How do I rotate an access key?',
    response: 'Create a second key, then retire the old one.',
    retrieved_context: texts.map((content, index) => ({ doc_uri: `doc-${content.length}`, content, rank: index + 1 })),
  });
  const dataset = await folder.write(
    'chunks.jsonl',
    [row('bm25', [BILLING, ROTATE]), row('dense', [ROTATE, BILLING])].map((line) => JSON.stringify(line)).join('\n'),
  );
  const result = await runBuiltCli(['run', dataset, '--config', CONFIG, '--store', join(folder.path, 'store'), '--out', out], {
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
  });
  expect(result.stderr).not.toMatch(/ {4}at /);
  expect(result.exitCode).toBe(0);
  return reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
}

describe('a run with model variants, an ensemble, a repeated judge and a custom retrieval judge', () => {
  it('reports each under its own id in the shapes the report aggregates, and asks nothing again on a second run', async () => {
    // Act
    const report = await run(join(folder.path, 'first'));
    const callsAfterFirst = server.log.length;
    const second = await run(join(folder.path, 'second'));

    // Assess: bm25 ranks billing (small 0, large 3 -> mean 1.5) above rotate (3, 3 -> 3)
    const bm25 = report.engines.bm25 ?? {};
    const prefix = 'retrieval/llm_judged';
    expect(bm25[`${prefix}/graded_relevance@small-model/ndcg@5/average`]).toBeCloseTo(3 / Math.log2(3) / 3, 12);
    expect(bm25[`${prefix}/graded_relevance@large-model/ndcg@5/average`]).toBe(1);
    expect(bm25[`${prefix}/relevance_panel/ndcg@5/average`]).toBeCloseTo((1.5 + 3 / Math.log2(3)) / (3 + 1.5 / Math.log2(3)), 12);
    expect(bm25[`${prefix}/relevance_panel/spread/average`]).toBe(0.5);
    // chunk_relevance drawn 3 times: the oracle answers the same each time, so every sample and the mean is 1/2, spread 0
    for (const sample of [1, 2, 3]) expect(bm25[`${prefix}/chunk_relevance/sample_${sample}/precision/average`]).toBe(0.5);
    expect(bm25[`${prefix}/chunk_relevance/precision/average`]).toBe(0.5);
    expect(bm25[`${prefix}/chunk_relevance/spread/average`]).toBe(0);
    expect(bm25[`${prefix}/mentions_rotation/precision/average`]).toBe(0.5);
    expect(Object.keys(report.judges).sort()).toEqual([
      'chunk_relevance',
      'graded_relevance@large-model',
      'graded_relevance@small-model',
      'mentions_rotation',
    ]);
    // 2 distinct chunks: 2 per variant, 3 samples x 2 for chunk_relevance, 2 for the custom judge
    expect(callsAfterFirst).toBe(2 + 2 + 6 + 2);
    const custom = server.log.find(
      (entry) => (entry.request.response_format as { json_schema?: { name?: string } }).json_schema?.name === 'mentions_rotation',
    );
    expect(custom?.request.messages[0]?.content).toContain(
      'Example 1\nRequest: How do I rotate a key?\nRetrieved chunk: Create a second key and switch clients to it.\nRationale: It gives the steps.\nRating: yes',
    );
    expect(server.log.length).toBe(callsAfterFirst);
    expect(second.engines).toEqual(report.engines);
  });
});
