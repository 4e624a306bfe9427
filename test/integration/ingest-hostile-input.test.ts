import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveToReport } from '../../cli/run/drive-run.js';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { findJudge } from '../../shared/judges/catalog/index.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';
import { caseIdFor } from '../../shared/run/run-identity.js';
import { formatInputError, inputErrorSchema, type InputError } from '../../shared/schema/input-error.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const judging = { backend: { kind: 'lexical' as const }, judges: [findJudge('document_recall') as JudgeDefinition] };
const DATASET_KEY = 'datasets/collide/rows.jsonl';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

async function ingest(rows: readonly (object | string)[], strict: boolean) {
  const infrastructure = embeddedInfrastructure(join(folder.path, 'store'), 1);
  const dataset = await folder.write('rows.jsonl', rows.map((row) => (typeof row === 'string' ? row : JSON.stringify(row))).join('\n'));
  const { etag } = await infrastructure.store.upload(DATASET_KEY, dataset);
  const outcome = await ingestDataset(
    { store: infrastructure.store, cases: infrastructure.cases, control: infrastructure.control, now: () => new Date() },
    {
      datasetKey: DATASET_KEY,
      etag,
      suite: 'collide',
      trigger: 'test',
      config: { ...configFileSchema.parse({ judges: ['document_recall'] }), strict },
      judgeSummary: 'none',
    },
  );
  return { infrastructure, outcome };
}

// A request id the store cannot take as a key is hashed into a case id; a second request whose
// id is that hash written out would share the case id, its results and its failures.
const unsafeId = 'what is x?';
const collidingRows = [
  {
    request_id: unsafeId,
    request: 'what is x?',
    response: 'x',
    retrieved_context: [{ doc_uri: 'd1', content: 'x' }],
    expected_retrieved_context: [{ doc_uri: 'd1' }],
  },
  { request_id: 'q2', request: 'question two', response: 'y', retrieved_context: [{ doc_uri: 'd2', content: 'y' }] },
  { request_id: caseIdFor(unsafeId), request: 'a different question', response: 'z', retrieved_context: [{ doc_uri: 'd3', content: 'z' }] },
];

describe('ingest of two requests with one case id', () => {
  it('rejects the later request as an input error naming both lines, and the run reports the rest', async () => {
    // Act
    const { infrastructure, outcome } = await ingest(collidingRows, false);
    if (outcome.kind !== 'started') throw new Error(`expected the run to start, got ${outcome.kind}`);
    const errorsText = new TextDecoder().decode(await infrastructure.store.get(`runs/${outcome.runId}/input-errors.jsonl`));
    const errors = errorsText
      .trim()
      .split('\n')
      .map((line) => inputErrorSchema.parse(JSON.parse(line)));
    const report = await driveToReport(infrastructure, outcome.runId, {
      expectedCases: 2,
      judgingFor: () => judging,
      tracker: silentProgress(),
      now: () => new Date(),
      concurrency: 2,
    });

    // Assess
    expect(outcome).toMatchObject({ cases: 2, inputErrors: 1 });
    expect(errors).toEqual([
      expect.objectContaining({
        file: DATASET_KEY,
        line: 3,
        field: 'request_id',
        message: expect.stringContaining('on line 1') as unknown as string,
      }),
    ]);
    expect(errors[0]?.fix).toMatch(/distinct request_id/);
    expect(report.cases).toEqual({ total: 2, evaluated: 2, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.input_errors).toBe(1);
    // Said first, not only counted: the averages are over fewer cases than the dataset holds.
    expect(report.warnings).toEqual([
      `${DATASET_KEY} has 1 input error: what it names is in no metric (the first: ${formatInputError(errors[0] as InputError)}; ` +
        `every one is in the store, at runs/${outcome.runId}/input-errors.jsonl)`,
    ]);
  });

  it('stops with that error under strict', async () => {
    const { outcome } = await ingest(collidingRows, true);

    expect(outcome).toMatchObject({ kind: 'rejected', error: { line: 3, field: 'request_id' } });
  });
});

describe('ingest of a hostile dataset', () => {
  it('runs the good rows through the pipeline and records every bad row with its line', async () => {
    // Prepare: bad JSON, 10,000-deep nesting, a __proto__ key, prototype names as ids, engines and tags
    const rows: (object | string)[] = [
      {
        request_id: 'constructor',
        request: 'q1',
        engine: 'toString',
        response: 'a',
        retrieved_context: [{ doc_uri: 'd1', content: 'a' }],
        hasOwnProperty: 'tag',
      },
      '{"request": "broken", ',
      `{"request": "deep", "meta": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      '{"__proto__": {"polluted": true}, "request": "prototype key"}',
      {
        request_id: '__proto__',
        request: 'q2',
        engine: 'constructor',
        response: 'b',
        retrieved_context: [{ doc_uri: 'd2', content: 'b', metadata: { toString: 1 } }],
      },
    ];

    // Act
    const { infrastructure, outcome } = await ingest(rows, false);
    if (outcome.kind !== 'started') throw new Error(`expected the run to start, got ${outcome.kind}`);
    const errorsText = new TextDecoder().decode(await infrastructure.store.get(`runs/${outcome.runId}/input-errors.jsonl`));
    const errors = errorsText
      .trim()
      .split('\n')
      .map((line) => inputErrorSchema.parse(JSON.parse(line)));
    const report = await driveToReport(infrastructure, outcome.runId, {
      expectedCases: 2,
      judgingFor: () => judging,
      tracker: silentProgress(),
      now: () => new Date(),
      concurrency: 2,
    });

    // Assess
    expect(errors.map((error) => [error.file, error.line])).toEqual([
      [DATASET_KEY, 2],
      [DATASET_KEY, 3],
      [DATASET_KEY, 4],
    ]);
    expect(report.cases).toEqual({ total: 2, evaluated: 2, failed: 0, missing: 0, judge_failed: 0 });
    expect(Object.keys(report.engines).sort()).toEqual(['constructor', 'toString']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
