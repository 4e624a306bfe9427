import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveToReport } from '../../cli/run/drive-run.js';
import { embeddedInfrastructure, type Infrastructure } from '../../cli/run/store-and-queues.js';
import { configFileSchema } from '../../shared/config/index.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';
import { findJudge } from '../../shared/judges/catalog/index.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { resumeRun } from '../../shared/operations/resume.js';
import { runStatus } from '../../shared/operations/run-status.js';
import type { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import { caseMessageSchema } from '../../shared/schema/pipeline-messages.js';
import { manifestSchema } from '../../shared/schema/run-records.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { silentProgress } from '../support/silent-progress.js';
import { drainQueue } from '../support/stepped-queue.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * A run with a canary set through the embedded pipeline's steps: ingest
 * reads it from `canaries/<suite>/<file>` beside the dataset and sends its
 * cases marked, the worker judges them, the reducer waits for them and
 * reports them apart from the run's own cases, and `assay resume` sends
 * an unfinished canary case again. The lexical judge stands in for an LLM.
 */
const SUITE = 'nightly';
const judging = { backend: { kind: 'lexical' as const }, judges: [findJudge('chunk_relevance') as JudgeDefinition] };

let folder: TempFolder;
let infrastructure: Infrastructure;
beforeEach(async () => {
  folder = await createTempFolder();
  infrastructure = embeddedInfrastructure(join(folder.path, 'store'), 1);
});
afterEach(async () => {
  await folder.remove();
});

/** Rows of requests q1..qN (the canary's share the run's ids on purpose) with a relevant and an irrelevant passage each. */
function rows(requests: number, topic: string): string {
  return Array.from({ length: requests }, (_, index) =>
    JSON.stringify({
      request_id: `q${index + 1}`,
      request: `how to ${topic}`,
      retrieved_context: [
        { doc_uri: `${topic}-${index}-a`, content: `how to ${topic}: the steps` },
        { doc_uri: `${topic}-${index}-b`, content: 'an unrelated passage about weather' },
      ],
      expected_retrieved_context: [{ doc_uri: `${topic}-${index}-a`, grade: 2 }],
    }),
  ).join('\n');
}

async function ingest(options: { canaryStored: boolean }) {
  const dataset = await folder.write('rows.jsonl', rows(3, 'rotate keys'));
  if (options.canaryStored)
    await infrastructure.store.upload(`canaries/${SUITE}/canary.jsonl`, await folder.write('canary.jsonl', rows(4, 'reset passwords')));
  const { etag } = await infrastructure.store.upload(`datasets/${SUITE}/rows.jsonl`, dataset);
  const outcome = await ingestDataset(
    { store: infrastructure.store, cases: infrastructure.cases, control: infrastructure.control, now: () => new Date() },
    {
      datasetKey: `datasets/${SUITE}/rows.jsonl`,
      etag,
      suite: SUITE,
      trigger: 'test',
      config: { ...configFileSchema.parse({ judges: ['chunk_relevance'], canaries: { dataset: 'configs/canary.jsonl' } }), strict: false },
      judgeSummary: 'lexical',
    },
  );
  if (outcome.kind !== 'started') throw new Error(`expected the run to start, got ${outcome.kind}`);
  return outcome;
}

const drive = (runId: string, expectedCases: number) =>
  driveToReport(infrastructure, runId, {
    expectedCases,
    judgingFor: () => judging,
    tracker: silentProgress(),
    now: () => new Date(),
    concurrency: 2,
  });

describe('a run with a canary set', () => {
  it('sends the canary cases marked, under ids of their own, and lists them apart from the run’s cases', async () => {
    // Act
    const outcome = await ingest({ canaryStored: true });

    // Assess
    expect([outcome.cases, outcome.canaryCases]).toEqual([3, 4]);
    const messages = (infrastructure.cases as InProcessQueue).bodies().map((body) => caseMessageSchema.parse(JSON.parse(body)));
    expect(messages.map((message) => [message.case_id, message.canary ?? false]).sort()).toEqual([
      ['canary~q1', true],
      ['canary~q2', true],
      ['canary~q3', true],
      ['canary~q4', true],
      ['q1', false],
      ['q2', false],
      ['q3', false],
    ]);
    const store = join(folder.path, 'store');
    const listed = async (key: string): Promise<string[]> => (JSON.parse(await readFile(join(store, key), 'utf8')) as string[]).sort();
    expect(await listed(runKeys.caseIds(outcome.runId))).toEqual(['q1', 'q2', 'q3']);
    expect(await listed(runKeys.canaryCaseIds(outcome.runId))).toEqual(['canary~q1', 'canary~q2', 'canary~q3', 'canary~q4']);
    const manifest = manifestSchema.parse(JSON.parse(await readFile(join(store, runKeys.manifest(outcome.runId)), 'utf8')));
    expect(manifest).toMatchObject({ cases: 3, canary: { key: `canaries/${SUITE}/canary.jsonl`, cases: 4, input_errors: 0 } });
  });

  it('reports the canary apart: the run’s cases are its own, the canary’s verdicts per item', async () => {
    // Prepare
    const outcome = await ingest({ canaryStored: true });

    // Act
    const report = await drive(outcome.runId, 7);

    // Assess
    expect(report.cases).toMatchObject({ total: 3, evaluated: 3 });
    expect(report.canaries?.cases).toEqual({ total: 4, evaluated: 4, failed: 0, missing: 0 });
    const canary = report.canaries?.judges.chunk_relevance;
    expect(canary?.scale).toBe('yes_no');
    expect(canary?.items).toHaveLength(8);
    expect(canary?.items[0]).toMatchObject({ request_id: 'q1', document: 'reset passwords-0-a', human: 2 });
    expect(report.canaries?.not_compared).toBe('the suite has no baseline and no earlier run to compare with');
    // The status of a reported run counts its own cases
    expect(await runStatus(infrastructure.store, outcome.runId)).toMatchObject({ results: 3, failures: 0 });
  });

  it('says in the report that a canary set is missing from the store, and reports the run', async () => {
    // Prepare
    const outcome = await ingest({ canaryStored: false });

    // Act
    const report = await drive(outcome.runId, 3);

    // Assess
    expect(outcome.canaryCases).toBe(0);
    expect(report.cases.evaluated).toBe(3);
    expect(report.canaries).toMatchObject({ cases: { total: 0 }, input_errors: 1, judges: {} });
    expect(report.canaries?.first_input_error).toMatch(/^canaries\/nightly\/canary\.jsonl: the dataset object does not exist/);
  });

  it('sends the unfinished canary cases again on assay resume, read again from the store', async () => {
    // Prepare: the process died after ingest, its queue with it
    const outcome = await ingest({ canaryStored: true });
    await drainQueue(infrastructure.cases);
    await drainQueue(infrastructure.control);

    // Act
    const resumed = await resumeRun({ ...infrastructure, now: () => new Date() }, outcome.runId);
    const report = await drive(outcome.runId, 7);

    // Assess
    expect(resumed).toMatchObject({ kind: 'requeued', caseIds: ['canary~q1', 'canary~q2', 'canary~q3', 'canary~q4', 'q1', 'q2', 'q3'] });
    expect(report.canaries?.cases.evaluated).toBe(4);
  });
});
