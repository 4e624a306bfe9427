import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uploadInput } from '../../cli/run/upload-input.js';
import type { CollectionWork } from '../../shared/trec-collection/trec-collection-work.js';
import { serializedPartitionCases } from '../../shared/trec-collection/trec-partition-cases.js';
import { spillRunsInTurn } from '../../shared/trec-collection/trec-run-spilling-reader.js';
import { readRunTopicsInTurn } from '../../shared/trec-collection/trec-run-topics.js';
import { runConfigSchema } from '../../shared/config/index.js';
import { spoolCases, spoolOptionsOf } from '../../shared/ingest/ingest.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

/** A run file: `documents` lines for each topic, scores falling with the rank, some tied. */
function runText(tag: string, topics: Record<string, number>): string {
  return Object.entries(topics)
    .flatMap(([topic, documents]) =>
      Array.from(
        { length: documents },
        (_, rank) => `${topic} Q0 ${tag}-d${(rank * 7) % documents} ${rank + 1} ${(1000 - Math.floor(rank / 2)).toFixed(1)} ${tag}\n`,
      ),
    )
    .join('');
}

/** The spool of a stored TREC collection, with or without `work`: the case messages and every claim-checked case. */
async function spool(name: string, files: { qrels: string; runs: string[] }, work?: CollectionWork) {
  const store = new MemoryStore();
  const { key } = await uploadInput(store, 'trec', { collection: files });
  const options = spoolOptionsOf(runConfigSchema.parse({}));
  const spooled = await spoolCases(
    store,
    'r-1',
    key,
    await mkdir(join(folder.path, name), { recursive: true }).then(() => join(folder.path, name)),
    work === undefined ? options : { ...options, collectionWork: work },
  );
  const claimChecks: Record<string, string> = {};
  for await (const caseKey of store.list('runs/r-1/cases/')) claimChecks[caseKey] = new TextDecoder().decode(await store.get(caseKey));
  return {
    messages: await readFile(spooled.messagesPath, 'utf8'),
    caseIds: await readFile(spooled.caseIdsPath, 'utf8'),
    engines: [...spooled.engines],
    claimChecks,
  };
}

describe('ingest of a TREC collection grouped elsewhere (the worker threads of an embedded run)', () => {
  it('sends the same messages and stores the same cases as grouping it in the ingest', async () => {
    // Prepare: topic 401 holds 3 × 1,100 chunks, past the inline limit, so it is claim-checked; 402 and 403 go inline
    const qrels = await folder.write('qrels.txt', ['401 0 a-d0 2', '401 0 b-d7 1', '402 0 a-d3 3', '403 0 x 1'].join('\n'));
    // Run c lists topic 401 from the lowest score up: ranked by a full sort, where a and b only need their ties ordered.
    const reversed = runText('c', { 401: 1_100 }).trimEnd().split('\n').reverse().join('\n');
    const runs = [
      await folder.write('a.run', runText('a', { 401: 1_100, 402: 30 })),
      await folder.write('b.run', runText('b', { 401: 1_100, 403: 4 })),
      await folder.write('c.run', reversed),
    ];
    const work: CollectionWork = {
      spillRuns: spillRunsInTurn,
      readRunTopics: readRunTopicsInTurn,
      partitionCases: serializedPartitionCases,
    };

    // Act
    const here = await spool('here', { qrels, runs });
    const elsewhere = await spool('elsewhere', { qrels, runs }, work);

    // Assess
    expect(elsewhere).toEqual(here);
    expect(Object.keys(here.claimChecks)).toEqual(['runs/r-1/cases/401.json']);
    expect(here.messages.trim().split('\n')).toHaveLength(3);
    expect(here.engines.sort()).toEqual(['a', 'b', 'c']);
  });
});
