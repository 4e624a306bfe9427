import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { embeddedInfrastructure } from '../cli/run/infrastructure.js';
import { judgeConfigSchema } from '../shared/judges/judge-config.js';
import { ingestDataset } from '../shared/pipeline/ingest.js';

/**
 * Peak memory of ingest on a large generated dataset (one row a case, one
 * engine, three retrieved chunks a row), read as this process's maximum
 * resident set size. Run it alone: `npm run bench:ingest -- --rows 1000000`.
 */
const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' } } });
const rows = Number(values.rows);
const folder = await mkdtemp(join(tmpdir(), 'assay-ingest-bench-'));
try {
  const dataset = join(folder, 'large.jsonl');
  const stream = createWriteStream(dataset);
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
  const infrastructure = embeddedInfrastructure(join(folder, 'store'));
  const { etag } = await infrastructure.store.upload('datasets/bench/large.jsonl', dataset);
  const before = process.resourceUsage().maxRSS;
  const started = performance.now();
  const outcome = await ingestDataset(
    { store: infrastructure.store, cases: infrastructure.cases, control: infrastructure.control, now: () => new Date(0) },
    {
      datasetKey: 'datasets/bench/large.jsonl',
      etag,
      suite: 'bench',
      trigger: 'bench',
      config: { ...judgeConfigSchema.parse({}), strict: false },
      judgeSummary: 'none',
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const peakMegabytes = process.resourceUsage().maxRSS / 1024;
  console.log(`ingest of ${rows} rows: ${outcome.kind}, ${seconds.toFixed(1)} s`);
  console.log(`peak RSS ${peakMegabytes.toFixed(0)} MB (before ingest ${(before / 1024).toFixed(0)} MB; target <= 256 MB)`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
