import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessQueue, type InProcessQueueOptions } from '../../../shared/ports/in-process-queue.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { bodiesOf, sendBodies, steppedQueue } from '../../support/stepped-queue.js';
import { describeWorkQueueContract } from '../../support/work-queue-contract.js';

let folder: TempFolder;
let queues = 0;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

/** A spool folder of its own for each queue: no body held in memory, one file per message unless told otherwise. */
function spoolOf(memoryBytes = 0, segmentBytes = 1): NonNullable<InProcessQueueOptions['spool']> {
  return { folder: join(folder.path, `spool-${++queues}`), memoryBytes, segmentBytes };
}

describeWorkQueueContract('InProcessQueue with every message spooled', async ({ visibilityTimeoutSeconds, maxReceiveCount }) => {
  const deadLetters = new InProcessQueue('assay-dead-letters', { visibilityTimeoutSeconds, spool: spoolOf() });
  const queue = new InProcessQueue('assay-cases', {
    visibilityTimeoutSeconds,
    redrive: { deadLetterQueue: deadLetters, maxReceiveCount },
    spool: spoolOf(),
  });
  return { queue, deadLetters };
});

describe('InProcessQueue spooling to disk', () => {
  it('holds at most its memory bound of bodies, and delivers every message once in send order', async () => {
    // Prepare: 2,000 bodies of 100 bytes (200,000 bytes) against a bound of 10,000 bytes and files of 5,000
    const spool = spoolOf(10_000, 5_000);
    const { queue } = steppedQueue({ spool, deadLetterSpool: spoolOf() });
    const bodies = Array.from({ length: 2_000 }, (_, index) => `case ${String(index).padStart(4, '0')} `.padEnd(100, 'x'));
    await sendBodies(queue, bodies);
    const afterSending = { bytes: queue.bytesInMemory, files: readdirSync(spool.folder).length, size: queue.size };

    // Act: receive and delete everything, ten at a time
    const delivered: string[] = [];
    let mostHeld = 0;
    for (
      let received = await queue.receive({ maxMessages: 10, waitSeconds: 0 });
      received.length > 0;
      received = await queue.receive({ maxMessages: 10, waitSeconds: 0 })
    ) {
      mostHeld = Math.max(mostHeld, queue.bytesInMemory);
      delivered.push(...bodiesOf(received));
      for (const message of received) await queue.delete(message.receiptHandle);
    }

    // Assess: the first 100 bodies held, the other 190,000 bytes (and a line each saying which message it is)
    // in files of about 5,000 bytes; the drained spool leaves no folder
    expect(afterSending).toEqual({ bytes: 10_000, files: expect.any(Number), size: 2_000 });
    expect(afterSending.files).toBeGreaterThanOrEqual(190_000 / 5_000 - 1);
    expect(mostHeld).toBeLessThanOrEqual(10_000);
    expect(delivered).toEqual(bodies);
    expect(queue.size).toBe(0);
    expect(queue.bytesInMemory).toBe(0);
    expect(existsSync(spool.folder)).toBe(false);
  });

  it.each([
    { where: 'held in memory', spooled: false },
    { where: 'spooled', spooled: true },
  ])('puts a message that came back, and a delayed one, in send order among the others, $where', async ({ spooled }) => {
    // Prepare: a and b sent; a received, then c sent and a delayed message held in memory
    const { queue, advance } = steppedQueue(spooled ? { spool: spoolOf(), deadLetterSpool: spoolOf() } : {});
    await sendBodies(queue, ['a', 'b']);
    const [first] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });
    await sendBodies(queue, ['c']);
    await sendBodies(queue, ['late'], 10);

    // Act: a comes back after its visibility timeout, late after its delay
    advance(30_000);
    const afterTimeout = await queue.receive({ maxMessages: 10, waitSeconds: 0 });

    // Assess
    expect(first?.body).toBe('a');
    expect(bodiesOf(afterTimeout)).toEqual(['a', 'b', 'c', 'late']);
    expect(afterTimeout.map((message) => message.receiveCount)).toEqual([2, 1, 1, 1]);
  });

  it('delivers in send order while messages are sent between receives', async () => {
    // Prepare: the spool's unwritten part is read while more messages come in behind it
    const { queue } = steppedQueue({ spool: spoolOf(0, 1_000_000), deadLetterSpool: spoolOf() });
    const delivered: string[] = [];

    // Act
    for (let round = 0; round < 5; round++) {
      await sendBodies(queue, [`${round}a`, `${round}b`, `${round}c`]);
      const received = await queue.receive({ maxMessages: 2, waitSeconds: 0 });
      delivered.push(...bodiesOf(received));
      for (const message of received) await queue.delete(message.receiptHandle);
    }
    const rest = await queue.receive({ maxMessages: 10, waitSeconds: 0 });

    // Assess
    expect([...delivered, ...bodiesOf(rest)]).toEqual([
      '0a',
      '0b',
      '0c',
      '1a',
      '1b',
      '1c',
      '2a',
      '2b',
      '2c',
      '3a',
      '3b',
      '3c',
      '4a',
      '4b',
      '4c',
    ]);
  });

  it('lists every body, spooled or held, in send order', async () => {
    const { queue } = steppedQueue({ spool: spoolOf(2, 3), deadLetterSpool: spoolOf() });
    await sendBodies(queue, ['a', 'b', 'c', 'd', 'e']);
    await sendBodies(queue, ['delayed'], 60);

    const [received] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });

    expect(received?.body).toBe('a');
    expect(queue.bodies()).toEqual(['a', 'b', 'c', 'd', 'e', 'delayed']);
    expect(queue.size).toBe(6);
  });

  it.each([
    ['in a file each', 10],
    ['not yet written to a file', 1_000_000],
  ])('keeps bodies with newlines and any character as they were sent, %s', async (_, segmentBytes) => {
    const { queue } = steppedQueue({ spool: spoolOf(0, segmentBytes), deadLetterSpool: spoolOf() });
    const bodies = ['line one\nline two\n', '', 'ünïcödé 中文 🙂', ' 3 4 5 6\n'];
    await sendBodies(queue, bodies);

    const received = await queue.receive({ maxMessages: 10, waitSeconds: 0 });

    expect(bodiesOf(received)).toEqual(bodies);
  });

  it('moves a spooled message to a spooling dead-letter queue after maxReceiveCount, with its receive count and send time', async () => {
    const { queue, deadLetters } = steppedQueue({ spool: spoolOf(), deadLetterSpool: spoolOf(), maxReceiveCount: 2 });
    await sendBodies(queue, ['poison']);
    let sentTimestamp: number | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const [received] = await queue.receive({ maxMessages: 1, waitSeconds: 0 });
      sentTimestamp = received?.sentTimestamp;
      await queue.changeVisibility(received?.receiptHandle ?? '', 0);
    }

    const afterLimit = await queue.receive({ maxMessages: 1, waitSeconds: 0 });
    const [deadLetter] = await deadLetters.receive({ maxMessages: 1, waitSeconds: 0 });

    expect(afterLimit).toEqual([]);
    expect(queue.size).toBe(0);
    expect(deadLetter).toMatchObject({ body: 'poison', receiveCount: 3, sentTimestamp });
  });

  it('names its spool file and what to do when it cannot write there', async () => {
    // Prepare: the spool folder's path is taken by a file
    const taken = await folder.write('not-a-folder', 'a file');
    const queue = new InProcessQueue('assay-cases', {
      visibilityTimeoutSeconds: 30,
      spool: { folder: taken, memoryBytes: 0, segmentBytes: 1 },
    });

    // Act
    const sending = queue.sendBatch([{ id: '0', body: 'case q1' }]);

    // Assess
    await expect(sending).rejects.toThrow(`The assay-cases queue could not write its spool file ${join(taken, 'segment-00000000')}`);
    await expect(sending).rejects.toThrow(/point TMPDIR at a folder with room/);
    // The file, as node:fs names it, so a full disk's line names it rather than the temp folder in general.
    await expect(sending).rejects.toMatchObject({ path: join(taken, 'segment-00000000') });
  });
});
