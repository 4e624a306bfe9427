import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { configFileSchema } from '../../shared/config/index.js';
import { ingestDataset } from '../../shared/ingest/ingest.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const INGEST_PROCESS = join(import.meta.dirname, '..', 'support', 'ingest-process.ts');

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

async function writeRows(path: string, rows: number): Promise<void> {
  const stream = createWriteStream(path);
  for (let index = 0; index < rows; index++) {
    const row = {
      request_id: `q${index}`,
      request: `question ${index}`,
      retrieved_context: [`passage one of ${index}`, `passage two of ${index}`],
    };
    if (!stream.write(`${JSON.stringify(row)}\n`)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
}

/** Polls until `found` gives a value, or fails after `timeoutMs`. */
async function waitFor<Value>(found: () => Promise<Value | undefined>, timeoutMs: number): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await found();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`gave up waiting after ${timeoutMs} ms`);
}

describe('an ingest killed half-way', () => {
  it('leaves a work folder that the next ingest removes', async () => {
    // Prepare: an ingest in a child process, killed with SIGKILL once its spill files exist
    const workParent = join(folder.path, 'assay-work');
    const dataset = join(folder.path, 'rows.jsonl');
    await writeRows(dataset, 200_000);
    const child = spawn(process.execPath, ['--import', 'tsx', INGEST_PROCESS, dataset, join(folder.path, 'killed-store'), workParent], {
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    const prefix = `ingest-pid${child.pid}-`;
    const leftover = await waitFor(async () => {
      const names = await readdir(workParent).catch(() => []);
      const name = names.find((candidate) => candidate.startsWith(prefix));
      if (name === undefined) return undefined;
      const spilled = await readdir(join(workParent, name, 'spill')).catch(() => []);
      return spilled.length > 0 ? name : undefined;
    }, 60_000);
    child.kill('SIGKILL');
    await exited;
    const afterKill = await readdir(workParent);

    // Act: another ingest, with no grace period for leftovers
    const infrastructure = embeddedInfrastructure(join(folder.path, 'store'), 1);
    const small = await folder.write('small.jsonl', `${JSON.stringify({ request: 'one question', response: 'r' })}\n`);
    const { etag } = await infrastructure.store.upload('datasets/next/small.jsonl', small);
    const outcome = await ingestDataset(
      {
        store: infrastructure.store,
        cases: infrastructure.cases,
        control: infrastructure.control,
        now: () => new Date(),
        workFolders: { parent: workParent, staleAfterMs: 0 },
      },
      {
        datasetKey: 'datasets/next/small.jsonl',
        etag,
        suite: 'next',
        trigger: 'test',
        config: { ...configFileSchema.parse({ judges: ['document_recall'] }), strict: false },
        judgeSummary: 'none',
      },
    );

    // Assess
    expect(child.signalCode).toBe('SIGKILL');
    expect(afterKill).toContain(leftover);
    expect(outcome).toMatchObject({ kind: 'started', cases: 1 });
    expect(await readdir(workParent)).toEqual([]);
  }, 90_000);
});
