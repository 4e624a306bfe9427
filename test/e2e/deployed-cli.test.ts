import type { Context } from 'aws-lambda';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as ingest } from '../../functions/ingest.js';
import { s3ObjectCreatedEvent } from '../support/lambda-event-source.js';
import { runBuiltCli } from '../support/built-cli.js';
import { startDeployedStack, type DeployedStack } from '../support/deployed-stack.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay submit`, `status` and `report`, as the built CLI runs them, against
 * a stack's bucket on fauxqs, with the Lambda handlers run by the local event
 * source in this process.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
const BUCKET = 'assay-deployed';
const context = { getRemainingTimeInMillis: () => 900_000 } as Context;
let stack: DeployedStack;
let folder: TempFolder;

beforeAll(async () => {
  stack = await startDeployedStack(BUCKET);
  folder = await createTempFolder();
});
afterAll(async () => {
  await stack.close();
  await folder.remove();
});

/** `assay ARGS... --aws-endpoint <the emulator>` through the built bin. */
const assay = (args: readonly string[]) => runBuiltCli([...args, '--aws-endpoint', stack.endpoint]);

describe('assay submit / status / report against a deployed stack (fauxqs)', () => {
  it('submits, follows and downloads a run', async () => {
    // Prepare
    const config = await folder.write('suite.yaml', 'judges: [chunk_relevance, document_recall]\n');

    // Act: submit, then the functions run
    const submitted = await assay(['submit', DATASET, '--bucket', BUCKET, '--suite', 'faq', '--config', config]);
    const runId = /run (r-[0-9a-f]{16})/.exec(submitted.stdout)?.[1] ?? '';
    const before = await assay(['status', runId, '--bucket', BUCKET]);
    const startedRun = await stack.process('datasets/faq/search-assistant.jsonl');
    const after = await assay(['status', runId, '--bucket', BUCKET, '--json']);
    const out = join(folder.path, 'report');
    const downloaded = await assay(['report', runId, '--bucket', BUCKET, '--out', out]);

    // Assess
    expect(submitted.stdout).toMatch(/^submitted datasets\/faq\/search-assistant\.jsonl to assay-deployed; run r-[0-9a-f]{16}\n$/);
    expect(startedRun).toBe(runId);
    expect(before.stdout).toBe(
      `run ${runId}: not started yet (no manifest): ingest has not claimed datasets/faq/search-assistant.jsonl yet\n`,
    );
    expect(before.exitCode).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({
      run_id: runId,
      suite: 'faq',
      cases: 12,
      evaluated: 12,
      failed: 0,
      ingested: true,
      report: `reports/faq/${runId}/report.json`,
    });
    expect(downloaded.exitCode).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['cases.jsonl', 'judgments.qrels', 'report.html', 'report.json', 'report.md']);
  });

  it('--wait follows a run until its report, and report explains a run without one', async () => {
    const waited = await assay(['submit', DATASET, '--bucket', BUCKET, '--suite', 'faq', '--wait']);
    expect(waited.stdout).toMatch(/report: reports\/faq\/r-[0-9a-f]{16}\/report\.json\n$/);
    const missing = await assay(['report', 'r-0000000000000000', '--bucket', BUCKET]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('No run r-0000000000000000 in bucket assay-deployed');
    const mistyped = await assay(['status', 'r-0000000000000000', '--bucket', BUCKET]);
    expect(mistyped.exitCode).toBe(1);
    expect(mistyped.stderr).toBe(
      `assay status: no such run r-0000000000000000 in bucket ${BUCKET} at ${stack.endpoint}; check the run id (assay run prints it on its first line) and the store\n`,
    );
  });

  it('submits a TREC collection: its files, then the manifest whose event starts the run', async () => {
    // Prepare
    const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', 'trec-eval', name);
    const config = await folder.write('trec.yaml', 'judges: []\n');

    // Act
    const submitted = await assay([
      'submit',
      '--qrels',
      fixture('qrels.test'),
      '--run',
      fixture('results.test'),
      '--run',
      fixture('results.trunc'),
      '--bucket',
      BUCKET,
      '--suite',
      'trec',
      '--config',
      config,
    ]);
    const runId = /run (r-[0-9a-f]{16})/.exec(submitted.stdout)?.[1] ?? '';
    const manifestKey = 'datasets/trec/qrels.trec/collection.json';
    const ignored = await ingest(s3ObjectCreatedEvent(BUCKET, 'datasets/trec/qrels.trec/runs/1/results.test', '"x"', 0), context);
    const startedRun = await stack.process(manifestKey);
    const out = join(folder.path, 'trec-report');
    await assay(['report', runId, '--bucket', BUCKET, '--out', out]);

    // Assess
    expect(submitted.stdout).toBe(`submitted ${manifestKey} to ${BUCKET}; run ${runId}\n`);
    expect(ignored).toEqual([]);
    expect(startedRun).toBe(runId);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { engines: Record<string, Record<string, number>> };
    expect(Object.keys(report.engines)).toEqual(['STANDARD', 'results.trunc:STANDARD']);
    expect(report.engines.STANDARD?.['retrieval/ground_truth/average_precision/average']).toBe(0.17854506039656948);
    expect(report.engines['results.trunc:STANDARD']?.['retrieval/ground_truth/average_precision/count']).toBe(2);
  });
});
