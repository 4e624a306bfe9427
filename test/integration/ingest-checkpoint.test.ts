import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveToReport } from '../../cli/run/drive-run.js';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { configFileSchema } from '../../shared/config/index.js';
import { findJudge } from '../../shared/judges/catalog/index.js';
import type { JudgeDefinition } from '../../shared/judges/judge-definition.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';
import type { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

describe('an ingest that runs short of time', () => {
  it('stops at a checkpoint, and the control queue resumes it: every case is sent once and judged once', async () => {
    // Prepare: an invocation short of time from the start; ingest checks the time after each batch
    // of 10, so it sends one batch (progress is guaranteed) and then stops at a checkpoint
    const infrastructure = embeddedInfrastructure(join(folder.path, 'store'), 1);
    const { etag } = await infrastructure.store.upload('datasets/example/search-assistant.jsonl', DATASET);
    const timeRemainingMs = () => 1_000;

    // Act: ingest, then the control queue's consumer resumes it
    const outcome = await ingestDataset(
      { store: infrastructure.store, cases: infrastructure.cases, control: infrastructure.control, now: () => new Date(), timeRemainingMs },
      {
        datasetKey: 'datasets/example/search-assistant.jsonl',
        etag,
        suite: 'example',
        trigger: 'test',
        config: { ...configFileSchema.parse({ judges: ['document_recall'] }), strict: false },
        judgeSummary: 'none',
      },
    );
    const sentByIngest = (infrastructure.cases as InProcessQueue).size;
    const control = (infrastructure.control as InProcessQueue).bodies().map((body) => JSON.parse(body) as { kind: string });
    const report = await driveToReport(infrastructure, outcome.runId, {
      expectedCases: 12,
      judgingFor: () => ({ backend: { kind: 'lexical' }, judges: [findJudge('document_recall') as JudgeDefinition] }),
      tracker: silentProgress(),
      now: () => new Date(),
      concurrency: 4,
    });

    // Assess
    expect(outcome).toMatchObject({ kind: 'started', cases: 12 });
    expect(sentByIngest).toBe(10);
    expect(control.map((message) => message.kind)).toEqual(['continue-ingest']);
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(await infrastructure.store.get(`runs/${outcome.runId}/ingested.json`)).toBeDefined();
  });
});
