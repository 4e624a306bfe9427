import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExtremeCases } from '../../../shared/reduce/extreme-cases.js';

/** The reference: every case sorted by value descending, then index ascending; the first and the last `count`. */
function sortedEnds(values: readonly number[], count: number) {
  const sorted = values
    .map((value, index) => ({ index, value }))
    .sort((left, right) => right.value - left.value || left.index - right.index);
  return { highest: sorted.slice(0, count), lowest: sorted.slice(-count).reverse() };
}

function keptEnds(values: readonly number[], count: number) {
  const highest = new ExtremeCases(count, 'highest');
  const lowest = new ExtremeCases(count, 'lowest');
  for (const [index, value] of values.entries()) {
    highest.offer(index, value);
    lowest.offer(index, value);
  }
  return { highest: highest.cases, lowest: lowest.cases };
}

describe('ExtremeCases', () => {
  it('keeps the first and the last cases of the whole list sorted by value, ties by index', () => {
    // Few distinct values, so that ties decide most places
    const values = fc.array(
      fc.integer({ min: 0, max: 6 }).map((step) => step / 6),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 20 }), (list, count) => {
        expect(keptEnds(list, count)).toEqual(sortedEnds(list, count));
      }),
    );
  });

  it('takes the highest values first and, among equal ones, the earliest case', () => {
    // Prepare: cases 0 to 5
    const values = [0.5, 1, 0.5, 0, 1, 0.5];

    // Act
    const { highest, lowest } = keptEnds(values, 3);

    // Assess
    expect(highest.map((entry) => entry.index)).toEqual([1, 4, 0]);
    expect(lowest.map((entry) => entry.index)).toEqual([3, 5, 2]);
  });
});
