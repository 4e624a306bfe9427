import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uploadInput } from '../../../cli/run/upload-input.js';
import { spoolCases, spoolOptionsOf } from '../../../shared/ingest/ingest.js';
import { runConfigSchema } from '../../../shared/config/index.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

/** A store whose claim-check writes take longer the earlier the case: stored at once, they finish last first. */
class SlowFirstStore extends MemoryStore {
  private claimChecks = 0;
  failing: string | undefined;

  override async put(key: string, body: Uint8Array | string, options: { ifNoneMatch?: boolean } = {}): Promise<{ written: boolean }> {
    if (key.includes('/cases/')) {
      const delay = Math.max(0, 40 - 5 * this.claimChecks++);
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (key === this.failing) throw new Error(`the store refused ${key}`);
    }
    return super.put(key, body, options);
  }
}

/** A TREC collection of 12 topics whose one run lists 2,100 documents each, stored: every case is claim-checked. */
async function storedCollection(store: MemoryStore): Promise<string> {
  const topics = Array.from({ length: 12 }, (_, index) => `${100 + index}`);
  const qrels = await folder.write('qrels.txt', topics.map((topic) => `${topic} 0 d1 1\n`).join(''));
  const run = await folder.write(
    'bm25.run',
    topics
      .flatMap((topic) => Array.from({ length: 2_100 }, (_, rank) => `${topic} Q0 d${rank} ${rank + 1} ${2_100 - rank} bm25\n`))
      .join(''),
  );
  const { key } = await uploadInput(store, 'trec', { collection: { qrels, runs: [run] } });
  return key;
}

/** The case ids of a spool's messages, in spool order. */
async function spooledCaseIds(messagesPath: string): Promise<string[]> {
  const text = (await readFile(messagesPath, 'utf8')).trim();
  return text === '' ? [] : text.split('\n').map((line) => (JSON.parse(line) as { case_id: string }).case_id);
}

const OPTIONS = spoolOptionsOf(runConfigSchema.parse({}));

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});

/** A new folder inside the test's folder. */
async function subfolder(name: string): Promise<string> {
  const path = join(folder.path, name);
  await mkdir(path);
  return path;
}
afterEach(async () => {
  await folder.remove();
});

describe('spoolCases', () => {
  it('spools the messages in case order while their claim checks are stored several at once and finish in any order', async () => {
    // Prepare
    const store = new SlowFirstStore();
    const key = await storedCollection(store);

    // Act
    const spooled = await spoolCases(store, 'r-1', key, await subfolder('slow'), OPTIONS);

    // Assess: the order of a store that writes at once
    const reference = new MemoryStore();
    const inOrder = await spoolCases(reference, 'r-1', await storedCollection(reference), await subfolder('reference'), OPTIONS);
    expect(spooled.cases).toBe(12);
    expect(await spooledCaseIds(spooled.messagesPath)).toEqual(await spooledCaseIds(inOrder.messagesPath));
    for await (const caseKey of reference.list('runs/r-1/cases/')) expect(await store.get(caseKey)).toEqual(await reference.get(caseKey));
  });

  it('fails with the error of a claim check the store refuses, after the ones before it are spooled', async () => {
    // Prepare: the fourth case's claim check fails, after the later ones are stored
    const store = new SlowFirstStore();
    store.failing = 'runs/r-1/cases/103.json';
    const key = await storedCollection(store);
    const spoolFolder = await subfolder('spool');

    // Act
    const spooling = spoolCases(store, 'r-1', key, spoolFolder, OPTIONS);

    // Assess
    await expect(spooling).rejects.toThrow('the store refused runs/r-1/cases/103.json');
    expect(await spooledCaseIds(join(spoolFolder, 'messages.jsonl'))).toEqual(['100', '101', '102']);
  });
});
