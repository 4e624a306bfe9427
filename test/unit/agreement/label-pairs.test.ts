import { describe, expect, it } from 'vitest';
import { pairLabels } from '../../../shared/agreement/label-pairs.js';
import { qrels } from './factories.js';

describe('pairLabels', () => {
  it('pairs the grades of the (topic, document) pairs both qrels label and counts the rest', () => {
    // Prepare
    const human = qrels([
      ['q1', { a: 1, b: 0, c: 2 }],
      ['q2', { x: 1 }],
    ]);
    const judge = qrels([
      ['q1', { b: 1, a: 1, d: 3 }],
      ['q3', { y: -1 }],
    ]);

    // Act
    const pairs = pairLabels(human, judge);

    // Assess: c and x only human, d and y only judge; categories from every label of either file
    expect(pairs).toEqual({ human: [1, 0], judge: [1, 1], humanOnly: 2, judgeOnly: 2, categories: [-1, 0, 1, 2, 3] });
  });

  it('takes topics in byte order of their ids, documents in the human file order', () => {
    const human = qrels([
      ['9', { b: 3, a: 2 }],
      ['10', { z: 1 }],
    ]);
    const judge = qrels([
      ['9', { a: 0, b: 1 }],
      ['10', { z: 2 }],
    ]);

    const pairs = pairLabels(human, judge);

    expect(pairs.human).toEqual([1, 3, 2]);
    expect(pairs.judge).toEqual([2, 1, 0]);
  });
});
