import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../shared/batch-judging/batch-state.js';
import { runStatusJson, runStatusJsonSchema } from '../../../shared/operations/run-status-json.js';
import type { RunStatus } from '../../../shared/operations/run-status.js';
import { manifest, RUN_ID } from '../report/factories.js';

function status(overrides: Partial<RunStatus> = {}): RunStatus {
  return {
    runId: RUN_ID,
    manifest: manifest(['c1', 'c2', 'c3']),
    ingested: true,
    results: 2,
    failures: 1,
    report: undefined,
    reported: undefined,
    ...overrides,
  };
}

function job(overrides: Partial<JobRecord> = {}): JobRecord {
  return { key: `${RUN_ID}-r0-j0`, round: 0, requests: 12, state: 'planned', phase: 'planned', collected: false, ...overrides };
}

describe('what assay status --json prints', () => {
  it('gives the counts of a run going, with null where there is no report yet', () => {
    // Act
    const printed = runStatusJson(RUN_ID, status());

    // Assess
    expect(runStatusJsonSchema.parse(printed)).toStrictEqual({
      run_id: RUN_ID,
      suite: 'faq',
      cases: 3,
      evaluated: 2,
      failed: 1,
      ingested: true,
      report: null,
    });
  });

  it('gives null for the suite and case count of a run ingest has not claimed: it has no manifest', () => {
    // Act
    const printed = runStatusJson(RUN_ID, status({ manifest: undefined, ingested: false, results: 0, failures: 0 }));

    // Assess
    expect(runStatusJsonSchema.parse(printed)).toMatchObject({ suite: null, cases: null, ingested: false });
  });

  it("gives a batch-judged run's jobs: null for what the provider has not said yet, every line not read by why", () => {
    // Prepare
    const planned = job();
    const finished = job({
      key: `${RUN_ID}-r0-j1`,
      provider_id: 'batch_abc',
      state: 'completed',
      phase: 'finished',
      counts: { total: 12, completed: 11, failed: 1 },
      collected: true,
      unread_lines: { 'not JSON': 1 },
    });

    // Act
    const printed = runStatusJson(RUN_ID, status({ batch: { round: 1, waiting: 4, jobs: [planned, finished] } }));

    // Assess
    expect(runStatusJsonSchema.parse(printed).batch).toStrictEqual({
      round: 1,
      waiting: 4,
      jobs: [
        { key: planned.key, id: null, round: 0, requests: 12, state: 'planned', counts: null, collected: false, unread_lines: {} },
        {
          key: finished.key,
          id: 'batch_abc',
          round: 0,
          requests: 12,
          state: 'completed',
          counts: { total: 12, completed: 11, failed: 1 },
          collected: true,
          unread_lines: { 'not JSON': 1 },
        },
      ],
    });
  });
});
