import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveToReport } from '../../cli/run/drive-run.js';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { findJudge } from '../../shared/judges/catalog/index.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';
import { checkRun } from '../../shared/reduce/reduce.js';
import type { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { caseMessageSchema } from '../../shared/schema/pipeline-messages.js';
import { RecordingStore } from '../support/recording-store.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const judging = { backend: { kind: 'lexical' as const }, judges: [findJudge('document_recall') as JudgeDefinition] };

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

async function ingest(rows: readonly object[], deadlineSeconds = 3600) {
  const infrastructure = embeddedInfrastructure(join(folder.path, 'store'), 1);
  const dataset = await folder.write('rows.jsonl', rows.map((row) => JSON.stringify(row)).join('\n'));
  const { etag } = await infrastructure.store.upload('datasets/edge/rows.jsonl', dataset);
  const outcome = await ingestDataset(
    { store: infrastructure.store, cases: infrastructure.cases, control: infrastructure.control, now: () => new Date() },
    {
      datasetKey: 'datasets/edge/rows.jsonl',
      etag,
      suite: 'edge',
      trigger: 'test',
      config: { ...configFileSchema.parse({ judges: ['document_recall'], run: { deadline_seconds: deadlineSeconds } }), strict: false },
      judgeSummary: 'none',
    },
  );
  if (outcome.kind !== 'started') throw new Error(`expected the run to start, got ${outcome.kind}`);
  return { infrastructure, runId: outcome.runId };
}

describe('pipeline edges', () => {
  it('sends a case too large for a message by claim check, and judges it like any other', async () => {
    // Prepare: one case whose response alone is over the inline limit of a message
    const { infrastructure, runId } = await ingest([
      {
        request_id: 'big',
        request: 'a long answer',
        response: 'x'.repeat(300 * 1024),
        retrieved_context: [{ doc_uri: 'd1', content: 'text' }],
        expected_retrieved_context: [{ doc_uri: 'd1' }],
      },
      { request_id: 'small', request: 'a short answer', response: 'y', retrieved_context: [{ doc_uri: 'd2', content: 'text' }] },
    ]);
    const messages = (infrastructure.cases as InProcessQueue).bodies().map((body) => caseMessageSchema.parse(JSON.parse(body)));

    // Act
    const report = await driveToReport(infrastructure, runId, {
      expectedCases: 2,
      judgingFor: () => judging,
      tracker: silentProgress(),
      now: () => new Date(),
      concurrency: 2,
    });

    // Assess
    expect(messages.find((message) => message.case_id === 'big')).toMatchObject({ case_key: `runs/${runId}/cases/big.json` });
    expect(messages.find((message) => message.case_id === 'small')?.case?.request).toBe('a short answer');
    expect(report.cases).toEqual({ total: 2, evaluated: 2, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.engines.default?.['retrieval/ground_truth/document_recall/average']).toBe(1);
  });

  it('reports the cases still missing at the deadline', async () => {
    // Prepare: a run whose messages are never consumed, checked after its deadline
    const { infrastructure, runId } = await ingest(
      [1, 2, 3].map((index) => ({ request_id: `q${index}`, request: `question ${index}`, response: 'r' })),
      1,
    );

    // Act
    const later = new Date(Date.now() + 5_000);
    const outcome = await checkRun(
      { store: infrastructure.store, control: infrastructure.control, now: () => later },
      { kind: 'check', run_id: runId, attempt: 0 },
    );

    // Assess
    expect(outcome.kind).toBe('reported');
    const report = outcome.kind === 'reported' ? outcome.report : undefined;
    expect(report?.cases).toEqual({ total: 3, evaluated: 0, failed: 0, missing: 3, judge_failed: 0 });
    expect(report?.missing_cases).toEqual(['q1', 'q2', 'q3']);
  });

  it('keeps waiting, and schedules the next check, while cases are outstanding before the deadline', async () => {
    const { infrastructure, runId } = await ingest([{ request_id: 'q1', request: 'question', response: 'r' }]);
    const control = infrastructure.control as InProcessQueue;
    const before = control.size;
    const outcome = await checkRun(
      { store: infrastructure.store, control: infrastructure.control, now: () => new Date() },
      { kind: 'check', run_id: runId, attempt: 3 },
    );
    expect(outcome).toEqual({ kind: 'waiting', runId, finished: 0, total: 1 });
    expect(control.size).toBe(before + 1);
    expect(JSON.parse(control.bodies().at(-1) as string)).toEqual({ kind: 'check', run_id: runId, attempt: 4 });
  });

  it.each([
    { name: 'before its deadline: schedules the next check', pastDeadline: false, checksAdded: 1 },
    { name: 'once past its deadline: leaves the report to the drive, with no next check', pastDeadline: true, checksAdded: 0 },
  ])(
    'checks the run a local drive reports itself without reading its case ids or results, or reporting it, $name',
    async ({ pastDeadline, checksAdded }) => {
      // Prepare: a run of three unconsumed cases, driven by this process
      const { infrastructure, runId } = await ingest(
        [1, 2, 3].map((index) => ({ request_id: `q${index}`, request: `question ${index}`, response: 'r' })),
        1,
      );
      const control = infrastructure.control as InProcessQueue;
      const before = control.size;
      const now = pastDeadline ? new Date(Date.now() + 5_000) : new Date();
      const store = new RecordingStore(infrastructure.store);

      // Act
      const outcome = await checkRun(
        { store, control: infrastructure.control, now: () => now, reportedElsewhere: runId },
        { kind: 'check', run_id: runId, attempt: 0 },
      );

      // Assess: never reported here (the deadline test above reports the same run when no drive has it)
      expect(outcome).toEqual({ kind: 'reported-elsewhere', runId });
      expect(store.reads).not.toContain(runKeys.caseIds(runId));
      expect(
        store.listings.filter(
          (prefix) => prefix.startsWith(runKeys.resultsPrefix(runId)) || prefix.startsWith(runKeys.failuresPrefix(runId)),
        ),
      ).toEqual([]);
      expect(control.size).toBe(before + checksAdded);
      const reports = [];
      for await (const key of infrastructure.store.list('reports/')) reports.push(key);
      expect(reports).toEqual([]);
    },
  );
});
