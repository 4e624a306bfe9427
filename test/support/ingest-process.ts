import { join } from 'node:path';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { configFileSchema } from '../../shared/config/index.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';

/**
 * An ingest in a process of its own, for tests that kill it half-way:
 * `node --import tsx ingest-process.ts DATASET STORE WORK_PARENT`.
 */
const [dataset, store, workParent] = process.argv.slice(2);
if (dataset === undefined || store === undefined || workParent === undefined)
  throw new Error('usage: ingest-process.ts DATASET STORE WORK_PARENT');

const infrastructure = embeddedInfrastructure(join(store), 1);
const { etag } = await infrastructure.store.upload('datasets/killed/rows.jsonl', dataset);
await ingestDataset(
  {
    store: infrastructure.store,
    cases: infrastructure.cases,
    control: infrastructure.control,
    now: () => new Date(),
    workFolders: { parent: workParent, staleAfterMs: 0 },
  },
  {
    datasetKey: 'datasets/killed/rows.jsonl',
    etag,
    suite: 'killed',
    trigger: 'test',
    config: { ...configFileSchema.parse({ judges: ['document_recall'] }), strict: false },
    judgeSummary: 'none',
  },
);
