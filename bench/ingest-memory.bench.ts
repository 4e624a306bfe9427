import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { embeddedInfrastructure } from '../cli/run/store-and-queues.js';
import { configFileSchema } from '../shared/config/index.js';
import { ingestDataset } from '../shared/ingest/ingest.js';
import type { WorkQueue } from '../shared/ports/work-queue.js';
import { benchArgs, benchOptions, wholeNumber } from './bench-options.js';

/**
 * Peak memory of ingest on a large generated dataset (one row a case, one
 * engine, three retrieved chunks a row). The dataset is written first; ingest
 * then runs in a fresh process, whose maximum resident set size is the
 * figure: `npm run bench:ingest -- --rows 1000000`.
 */
const { values } = benchArgs('bench:ingest', {
  options: { rows: { type: 'string', default: '1000000' }, 'ingest-only': { type: 'string' } },
});
const options = benchOptions('bench:ingest', z.object({ rows: wholeNumber(1) }), values);

if (options['ingest-only'] !== undefined) {
  process.stdout.write(JSON.stringify(await ingestOnly(options['ingest-only'])));
} else {
  const { rows } = options;
  const folder = await mkdtemp(join(tmpdir(), 'assay-ingest-bench-'));
  try {
    const dataset = join(folder, 'large.jsonl');
    await generate(dataset, rows);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', import.meta.filename, '--ingest-only', dataset], {
      maxBuffer: 1 << 20,
    });
    const result = JSON.parse(stdout) as {
      outcome: string;
      sent: number;
      seconds: number;
      peakMegabytes: number;
      baselineMegabytes: number;
    };
    console.log(`ingest of ${rows} rows: ${result.outcome}, ${result.sent} case messages sent, ${result.seconds.toFixed(1)} s`);
    console.log(
      `peak RSS ${result.peakMegabytes.toFixed(0)} MB (the process before ingest: ${result.baselineMegabytes.toFixed(0)} MB; target <= 256 MB)`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function generate(path: string, rows: number): Promise<void> {
  const stream = createWriteStream(path);
  for (let index = 0; index < rows; index++) {
    const row = {
      request_id: `q${index}`,
      request: `question ${index}`,
      retrieved_context: [0, 1, 2].map((rank) => ({ doc_uri: `d${(index * 3 + rank) % 100_000}`, content: `passage ${rank} of ${index}` })),
    };
    if (!stream.write(`${JSON.stringify(row)}\n`)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
}

async function ingestOnly(dataset: string) {
  const folder = await mkdtemp(join(tmpdir(), 'assay-ingest-store-'));
  try {
    const infrastructure = embeddedInfrastructure(join(folder, 'store'));
    const { etag } = await infrastructure.store.upload('datasets/bench/large.jsonl', dataset);
    // On AWS the case messages leave the process for SQS; here they are counted and dropped, so the
    // figure is ingest's own memory, not that of an in-process queue holding a million messages.
    let sent = 0;
    const casesQueue: WorkQueue = {
      name: 'bench-cases',
      sendBatch: async (messages) => {
        sent += messages.length;
        return { failed: [] };
      },
      receive: async () => [],
      delete: async () => {},
      changeVisibility: async () => {},
    };
    const baselineMegabytes = process.resourceUsage().maxRSS / 1024;
    const started = performance.now();
    const outcome = await ingestDataset(
      { store: infrastructure.store, cases: casesQueue, control: infrastructure.control, now: () => new Date(0) },
      {
        datasetKey: 'datasets/bench/large.jsonl',
        etag,
        suite: 'bench',
        trigger: 'bench',
        config: { ...configFileSchema.parse({}), strict: false },
        judgeSummary: 'none',
      },
    );
    return {
      outcome: outcome.kind,
      sent,
      seconds: (performance.now() - started) / 1000,
      peakMegabytes: process.resourceUsage().maxRSS / 1024,
      baselineMegabytes,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
