import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadCorpus, startBm25Server } from '../../examples/engines/bm25-server.js';
import { reportSchema } from '../../shared/schema/report.js';
import { startOpenAiTestServer, type ChatRequest, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * judgments.qrels: the run's graded_relevance verdicts as TREC qrels. With a
 * judge that answers each (query, document) with the assessors' grade, the
 * file must agree exactly with the assessors' qrels on every pair both label,
 * and so must the report's agreement block, which the dataset's own labels
 * feed. A variant of the judge on a rougher model (grades 1 read as 0, 2 as 3)
 * falls below run.min_agreement and is warned about.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const QUERIES = join(ROOT, 'examples', 'datasets', 'queries.jsonl');

interface QueryRow {
  request_id: string;
  request: string;
  expected_retrieved_context: { doc_uri: string; grade: number }[];
}

let folder: TempFolder;
let judge: OpenAiTestServer;
let service: Server;
let queries: QueryRow[];
/** Calls answered for the run's own judge model, so not for the rough variant. */
let gradedCalls: number;
const ROUGH: Readonly<Record<number, number>> = { 0: 0, 1: 0, 2: 3, 3: 3 };
beforeEach(async () => {
  gradedCalls = 0;
  folder = await createTempFolder();
  queries = (await readFile(QUERIES, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as QueryRow);
  const corpus = loadCorpus(join(ROOT, 'examples', 'engines', 'corpus.jsonl'));
  // The assessors' grade of the (query, passage) in the prompt; 0 for a pair they did not label.
  judge = await startOpenAiTestServer({
    oracle: (request: ChatRequest) => {
      const prompt = request.messages.map((message) => message.content ?? '').join('\n');
      const query = queries.find((row) => prompt.includes(row.request));
      const document = corpus.find((candidate) => prompt.includes(candidate.text));
      const grade = query?.expected_retrieved_context.find((label) => label.doc_uri === document?.id)?.grade ?? 0;
      if (request.model === 'rough-model') return { json: { rationale: `roughly ${grade}`, rating: ROUGH[grade] } };
      gradedCalls++;
      return { json: { rationale: `the assessors gave ${grade}`, rating: grade } };
    },
  });
  service = await startBm25Server({ port: 0, host: '127.0.0.1', delayMs: 0, failRate: 0, documents: corpus });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await judge.close();
  await new Promise((resolve) => service.close(resolve));
  await folder.remove();
});

describe('judgments.qrels', () => {
  it('holds the judged grades as qrels, in exact agreement with the assessors the judge follows, as the report says', async () => {
    // Prepare: one live engine, the graded judge and its rough variant, a minimum agreement only the first meets
    const { port } = service.address() as AddressInfo;
    const config = await folder.write(
      'graded.yaml',
      `judges: [graded_relevance, graded_relevance@rough-model]\nrun: {min_agreement: 0.9}\nengines:\n  - name: bm25\n    http: {url: "http://127.0.0.1:${port}/search", body: {query: "{{query}}", size: 10}, results: "hits[].{doc_uri: id, content: text, score: score}"}\n`,
    );
    const human = await folder.write(
      'human.qrels',
      queries
        .flatMap((row) => row.expected_retrieved_context.map((label) => `${row.request_id} 0 ${label.doc_uri} ${label.grade}\n`))
        .join(''),
    );
    vi.stubEnv('OPENAI_API_KEY', 'test-key');
    vi.stubEnv('OPENAI_BASE_URL', judge.baseUrl);
    vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
    const out = join(folder.path, 'out');

    // Act
    const run = await runCli(['run', QUERIES, '--config', config, '--store', join(folder.path, 'store'), '--out', out]);
    const agreement = await runCli(['agreement', '--human', human, '--judge', join(out, 'judgments.qrels'), '--json']);

    // Assess: one line per judged (request, document), each a pair the judge was asked
    expect(run.exitCode).toBe(0);
    const qrels = (await readFile(join(out, 'judgments.qrels'), 'utf8')).trim().split('\n');
    expect(qrels.length).toBe(gradedCalls);
    expect(qrels.filter((line) => !/^\d+ 0 [\w-]+ [0-3]$/.test(line))).toEqual([]);
    const result = JSON.parse(agreement.stdout) as { pairs: number; exact_agreement: number; cohen_kappa: number; weighted_kappa: number };
    expect(result.pairs).toBeGreaterThan(20);
    expect(result).toMatchObject({ exact_agreement: 1, cohen_kappa: 1, weighted_kappa: 1 });
    // Assess: the report counts the same pairs, from the labels of the dataset's rows
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.agreement?.graded_relevance).toMatchObject({
      pairs: result.pairs,
      exact_agreement: 1,
      cohen_kappa: 1,
      weighted_kappa: 1,
      binary: { level: 1, kappa: 1, precision: 1, recall: 1 },
    });
    const rough = report.agreement?.['graded_relevance@rough-model'];
    expect(rough?.pairs).toBe(result.pairs);
    expect(rough?.cohen_kappa).toBeLessThan(0.9);
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^graded_relevance@rough-model: Cohen's kappa with the human labels is -?[\d.]+ over \d+ pairs, below run.min_agreement 0.9$/,
      ),
    ]);
    expect(run.stderr).toContain(`assay: warning: ${report.warnings?.[0]}`);
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('## Agreement with the human labels');
  });
});
