import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedInfrastructure, QUEUE_MEMORY_BYTES } from '../../../cli/run/store-and-queues.js';
import { DEFAULT_WORK_FOLDERS } from '../../../shared/run/work-folders.js';
import type { InProcessQueue } from '../../../shared/ports/in-process-queue.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

/** This process's case spool folders under the work folders' parent. */
function caseSpools(): string[] {
  return readdirSync(DEFAULT_WORK_FOLDERS.parent).filter((name) => name.startsWith(`case-spool-pid${process.pid}-`));
}

describe('the embedded infrastructure', () => {
  it('holds QUEUE_MEMORY_BYTES of case messages in memory and spools the rest to a work folder of this process, removed once drained', async () => {
    // Prepare: 8 MiB of messages of 1 KiB past the memory bound, in batches of 10 (40,960 messages).
    // No other test spools to the default parent: they keep under the bound or give a parent of their own.
    const { cases } = embeddedInfrastructure(join(folder.path, 'store'), 30);
    const queue = cases as InProcessQueue;
    const body = 'x'.repeat(1024);
    const count = QUEUE_MEMORY_BYTES / 1024 + 8 * 1024;
    for (let sent = 0; sent < count; sent += 10)
      await cases.sendBatch(Array.from({ length: 10 }, (_, index) => ({ id: String(index), body })));
    const spooled = caseSpools().map((name) => readdirSync(join(DEFAULT_WORK_FOLDERS.parent, name)).length);
    const held = queue.bytesInMemory;

    // Act: receive and delete every message
    let received = 0;
    for (
      let batch = await cases.receive({ maxMessages: 10, waitSeconds: 0 });
      batch.length > 0;
      batch = await cases.receive({ maxMessages: 10, waitSeconds: 0 })
    ) {
      received += batch.length;
      for (const message of batch) await cases.delete(message.receiptHandle);
    }

    // Assess: 8 MiB in files of 4 MiB (the last one still being filled stays in memory)
    expect(held).toBe(QUEUE_MEMORY_BYTES);
    expect(spooled).toEqual([expect.any(Number)]);
    expect(spooled[0]).toBeGreaterThanOrEqual(1);
    expect(received).toBe(count);
    expect(caseSpools()).toEqual([]);
  });
});
