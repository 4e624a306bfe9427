import { describe, expect, it } from 'vitest';
import { datasetEvents } from '../../../shared/ingest/dataset-source.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { createTempFolder } from '../../support/temp-folder.js';

describe('the cases of a stored dataset', () => {
  it('are read from an object whose name is longer than a local file name may be, as S3 allows', async () => {
    // Prepare: a key whose last part is 300 bytes (S3 keys go to 1,024; file names to 255)
    const store = new MemoryStore();
    const key = `datasets/nightly/${'a'.repeat(294)}.jsonl`;
    await store.put(key, `${JSON.stringify({ request_id: 'q1', request: 'rotate a key', response: 'Rotate it.' })}\n`);
    const folder = await createTempFolder();

    try {
      // Act
      const kinds: string[] = [];
      for await (const event of datasetEvents(store, key, folder.path, { contentDepth: 10 })) kinds.push(event.kind);

      // Assess
      expect(kinds).toContain('case');
      expect(kinds).not.toContain('error');
    } finally {
      await folder.remove();
    }
  });
});
