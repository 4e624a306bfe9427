import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveToReport } from '../../cli/run/drive-run.js';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { findJudge } from '../../shared/judges/catalog/index.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';
import { checkRun, scheduleCheck } from '../../shared/reduce/reduce.js';
import type { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import { caseMessageSchema } from '../../shared/schema/pipeline-messages.js';
import { silentProgress } from '../support/silent-progress.js';
import { drainQueue } from '../support/stepped-queue.js';
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

  it('answers a wait while cases are outstanding before the deadline, which the reducer Lambda sends as the next check', async () => {
    // Prepare
    const { infrastructure, runId } = await ingest([{ request_id: 'q1', request: 'question', response: 'r' }]);
    const control = infrastructure.control as InProcessQueue;
    const before = control.size;

    // Act
    const action = await checkRun(
      { store: infrastructure.store, control: infrastructure.control, now: () => new Date() },
      { kind: 'check', run_id: runId, attempt: 3 },
    );
    const sentByCheck = control.size - before;
    if (action.kind !== 'wait') throw new Error(`expected a wait, got ${action.kind}`);
    await scheduleCheck(control, action);

    // Assess: the check decides (attempt 3 of a 1-second base: 1.5^3, rounded), the driver sends
    expect(action).toEqual({ kind: 'wait', runId, seconds: 3, attempt: 4, progress: { kind: 'cases', finished: 0, total: 1 } });
    expect(sentByCheck).toBe(0);
    expect(JSON.parse(control.bodies().at(-1) as string)).toEqual({ kind: 'check', run_id: runId, attempt: 4 });
  });

  it.each([
    { name: 'before its deadline, its cases judged by the drive', pastDeadline: false, evaluated: 3, missing: 0 },
    { name: 'once past its deadline, its cases missing', pastDeadline: true, evaluated: 0, missing: 3 },
  ])(
    "drives a run to its report, $name, and sends no check of it: its checks are the drive's own",
    async ({ pastDeadline, evaluated, missing }) => {
      // Prepare: a run of three cases, with checks of it waiting on the control queue (ingest's first, and two more)
      const { infrastructure, runId } = await ingest(
        [1, 2, 3].map((index) => ({ request_id: `q${index}`, request: `question ${index}`, response: 'r' })),
        1,
      );
      const control = infrastructure.control as InProcessQueue;
      await scheduleCheck(control, { kind: 'wait', runId, seconds: 0, attempt: 1, progress: { kind: 'cases', finished: 0, total: 3 } });
      await scheduleCheck(control, { kind: 'wait', runId, seconds: 0, attempt: 2, progress: { kind: 'cases', finished: 0, total: 3 } });
      const checksBefore = control.bodies().filter((body) => body.includes(runId));
      const now = (): Date => (pastDeadline ? new Date(Date.now() + 5_000) : new Date());
      // Past the deadline, its case messages are gone (another process took them and died): nothing is judged.
      if (pastDeadline) await drainQueue(infrastructure.cases);

      // Act
      const report = await driveToReport(infrastructure, runId, {
        expectedCases: pastDeadline ? 0 : 3,
        judgingFor: () => judging,
        tracker: silentProgress(),
        now,
        concurrency: 2,
      });

      // Assess: reported by the drive; the checks of the run it received acknowledged, none sent again
      expect(report.cases).toMatchObject({ total: 3, evaluated, missing });
      const checksAfter = control.bodies().filter((body) => body.includes(runId));
      expect(checksAfter.filter((body) => !checksBefore.includes(body))).toEqual([]);
    },
  );
});
