import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { listAll } from '../../support/object-store-contract.js';

/** Keys from a small alphabet, so that prefixes, puts again and deletes meet the same keys often. */
const key = fc.stringMatching(/^[aB_-]{1,3}\/[aB_-]{0,2}k$/);
const operation = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.record({ kind: fc.constant('list' as const), prefix: fc.stringMatching(/^[aB_-]{0,2}\/?[aB_-]{0,1}$/) }),
);

describe('MemoryStore listing', () => {
  it('lists, after any puts and deletes, the keys under the prefix in the order sort() gives them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 60 }), async (operations) => {
        // Prepare: the store and the plain set of keys it should hold
        const store = new MemoryStore();
        const held = new Set<string>();
        for (const step of operations) {
          // Act
          if (step.kind === 'put') {
            await store.put(step.key, 'x');
            held.add(step.key);
          } else if (step.kind === 'delete') {
            await store.delete(step.key);
            held.delete(step.key);
          } else {
            // Assess
            const expected = [...held].filter((name) => name.startsWith(step.prefix)).sort();
            expect(await listAll(store, step.prefix)).toEqual(expected);
          }
        }
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
});
