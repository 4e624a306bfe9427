import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveToReport } from '../../cli/run/drive-run.js';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { buildJudging } from '../../shared/worker/judging.js';
import { loadCorpus, startBm25Server } from '../../examples/engines/bm25-server.js';
import { quietTelemetry } from '../support/quiet-telemetry.js';
import { createScheduledTriggerHandler } from '../../functions/scheduled-trigger.js';
import { configFileSchema } from '../../shared/config/index.js';
import type { RunConfig } from '../../shared/config/index.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * The nightly schedule against live engines, through the deployed handlers
 * (trigger → ingest → judge worker → reducer) on the embedded adapters: the
 * suite's stored dataset holds only queries and labels, its config lists a
 * live engine, and each night's run asks the engine as it is that night.
 */
const ROOT = join(import.meta.dirname, '..', '..');

let folder: TempFolder;
let service: Server | undefined;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await new Promise((resolve) => (service === undefined ? resolve(undefined) : service.close(resolve)));
  service = undefined;
  await folder.remove();
});

async function startService(degraded: boolean): Promise<number> {
  await new Promise((resolve) => (service === undefined ? resolve(undefined) : service.close(resolve)));
  service = await startBm25Server({
    port: 0,
    host: '127.0.0.1',
    delayMs: 0,
    failRate: 0,
    degraded,
    documents: loadCorpus(join(ROOT, 'examples', 'engines', 'corpus.jsonl')),
  });
  return (service.address() as AddressInfo).port;
}

describe('the nightly trigger with live engines', () => {
  it("measures each night's engine, and the night it degrades names it in the regressions", async () => {
    // Prepare: a stored query-only suite; its config's engine points at the service on a port set each night
    const infrastructure = embeddedInfrastructure(join(folder.path, 'store'), 2);
    await infrastructure.store.upload('datasets/nightly/queries.jsonl', join(ROOT, 'examples', 'datasets', 'queries.jsonl'));
    let port = await startService(false);
    let now = new Date('2026-11-22T03:00:00Z');
    const configOf = (): RunConfig => ({
      ...configFileSchema.parse({
        judges: [],
        engines: [
          {
            name: 'bm25',
            http: {
              url: `http://127.0.0.1:${port}/search`,
              body: { query: '{{query}}', size: 10 },
              results: 'hits[].{doc_uri: id, content: text, score: score}',
            },
          },
        ],
      }),
      strict: false,
    });
    const trigger = createScheduledTriggerHandler(
      {
        store: infrastructure.store,
        cases: infrastructure.cases,
        control: infrastructure.control,
        now: () => now,
        configFor: async () => ({ config: configOf(), judgeSummary: 'none' }),
      },
      ['nightly'],
      quietTelemetry(),
    );
    const night = async () => {
      const [started] = await trigger({});
      const runId = (started as { outcome: { runId: string } }).outcome.runId;
      return driveToReport(infrastructure, runId, {
        expectedCases: 12,
        judgingFor: (config) => buildJudging(config, { environment: {}, cacheStore: undefined, engineEnvironment: {} }),
        tracker: silentProgress(),
        now: () => new Date(),
        concurrency: 4,
      });
    };

    // Act: a healthy night, then a night after a bad release of the engine
    const first = await night();
    port = await startService(true);
    now = new Date('2026-11-23T03:00:00Z');
    const second = await night();

    // Assess
    expect(first.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(first.engines.bm25?.['engine/latency_ms/count']).toBe(12);
    expect(second.comparison?.baseline_run_id).toBe(first.run_id);
    expect(second.comparison?.regressions).toEqual(
      expect.arrayContaining([expect.objectContaining({ engine: 'bm25', metric: 'retrieval/ground_truth/ndcg@10' })]),
    );
    expect(second.engines.bm25?.['retrieval/ground_truth/ndcg@10/average']).toBeLessThan(
      first.engines.bm25?.['retrieval/ground_truth/ndcg@10/average'] ?? 0,
    );
  }, 60_000);
});
