import { describe, expect, it } from 'vitest';
import { DEFAULT_EVALUATION_OPTIONS, evaluateRun } from '../../../shared/trec/evaluate.js';
import { formatFixed4, formatTrecJson, formatTrecText } from '../../../shared/trec/format.js';
import { selectMeasures } from '../../../shared/trec/measure-selection.js';
import { referenceFixed4 } from './exact-decimal.js';
import { evaluation, measureValue, qrels, run } from './factories.js';

describe('formatFixed4 (printf "%6.4f")', () => {
  it.each<[number, string]>([
    [0, '0.0000'],
    [1, '1.0000'],
    [0.5, '0.5000'],
    [5 / 9, '0.5556'],
    [1 / 3, '0.3333'],
    [2 / 3, '0.6667'],
    // exact ties (odd multiples of 1/32) round half to even, as glibc does
    [1 / 32, '0.0312'],
    [3 / 32, '0.0938'],
    [5 / 32, '0.1562'],
    [7 / 32, '0.2188'],
    [33 / 32, '1.0312'],
    [-1 / 32, '-0.0312'],
    // not ties: the doubles nearest 0.00005 and 0.00015 lie above and below the midpoint
    [0.00005, '0.0001'],
    [0.00015, '0.0001'],
    [0.99995, '1.0000'],
    [0.99994999, '0.9999'],
    [-0.00001, '-0.0000'],
    [12.34567, '12.3457'],
    [123.5, '123.5000'],
    [-287, '-287.0000'],
    [Number.POSITIVE_INFINITY, '   inf'],
    [Number.NEGATIVE_INFINITY, '  -inf'],
  ])('prints %d as %j', (value, expected) => {
    expect(formatFixed4(value)).toBe(expected);
  });

  it.each([
    // 2^41 + 1/32 = 2199023255552.03125: an exact tie, even digit 2
    [2 ** 41 + 1 / 32, '2199023255552.0312'],
    [2 ** 47 + 7 / 32, '140737488355328.2188'],
    // %f never switches to exponent notation
    [1e21, '1000000000000000000000.0000'],
  ])('prints the large value %d as C does, %j', (value, expected) => {
    expect(referenceFixed4(value)).toBe(expected);
    expect(formatFixed4(value)).toBe(expected);
  });
});

describe('formatTrecText', () => {
  const perTopic = [
    { topicId: '301', values: [measureValue('num_ret', 4, true), measureValue('map', 5 / 9)] },
    { topicId: '302', values: [measureValue('num_ret', 1, true), measureValue('map', 0)] },
  ];
  const summary = [
    measureValue('runid', 'tiny-run'),
    measureValue('num_q', 2, true),
    measureValue('num_ret', 5, true),
    measureValue('map', 5 / 18),
    measureValue('P_5', 0.2),
  ];
  const sample = evaluation(perTopic, summary);

  it('prints "%-22s\\t%s\\t%6.4f" rows: counts as integers, runid as text, summary rows under "all"', () => {
    // Act
    const text = formatTrecText(sample, { perTopic: true, summary: true });

    // Assess
    expect(text).toBe(
      [
        'num_ret               \t301\t4',
        'map                   \t301\t0.5556',
        'num_ret               \t302\t1',
        'map                   \t302\t0.0000',
        'runid                 \tall\ttiny-run',
        'num_q                 \tall\t2',
        'num_ret               \tall\t5',
        'map                   \tall\t0.2778',
        'P_5                   \tall\t0.2000',
        '',
      ].join('\n'),
    );
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .every((line) => line.indexOf('\t') === 22),
    ).toBe(true);
  });

  it('prints only the summary without per-topic rows (trec_eval without -q)', () => {
    const text = formatTrecText(sample, { perTopic: false, summary: true });
    expect(text.split('\n')[0]).toBe('runid                 \tall\ttiny-run');
    expect(text).not.toContain('\t301\t');
  });

  it('prints nothing when asked for nothing', () => {
    expect(formatTrecText(sample, { perTopic: false, summary: false })).toBe('');
  });

  it('does not cut a measure name longer than 22 characters', () => {
    const text = formatTrecText(evaluation([], [measureValue('ndcg_1=3,2=9,4=4.5,5=12.25', 0.25)]), { perTopic: false, summary: true });
    expect(text).toBe('ndcg_1=3,2=9,4=4.5,5=12.25\tall\t0.2500\n');
  });

  it('prints the counts of an evaluation as integers', () => {
    const text = formatTrecText(evaluation([], [measureValue('num_rel', 1234.0, true)]), { perTopic: false, summary: true });
    expect(text).toBe('num_rel               \tall\t1234\n');
  });

  it('prints a whole evaluation of a tiny collection', () => {
    // Prepare: relevant at ranks 1 and 3 of R = 3, P_5 = 2/5, map = (1/1 + 2/3) / 3 = 0.5556
    const selection = selectMeasures(['runid', 'num_q', 'num_rel_ret', 'map', 'P.5']);
    if (!selection.ok) throw new Error(selection.error);
    const result = evaluateRun(
      qrels([['7', { a: 1, b: 0, c: 1, d: 1 }]]),
      run(
        [
          [
            '7',
            [
              ['a', 3],
              ['b', 2],
              ['c', 1],
            ],
          ],
        ],
        'bm25',
      ),
      selection.value,
      DEFAULT_EVALUATION_OPTIONS,
    );
    if (!result.ok) throw new Error(result.error);

    // Act
    const text = formatTrecText(result.value, { perTopic: true, summary: true });

    // Assess
    expect(text).toBe(
      [
        'num_rel_ret           \t7\t2',
        'map                   \t7\t0.5556',
        'P_5                   \t7\t0.4000',
        'runid                 \tall\tbm25',
        'num_q                 \tall\t1',
        'num_rel_ret           \tall\t2',
        'map                   \tall\t0.5556',
        'P_5                   \tall\t0.4000',
        '',
      ].join('\n'),
    );
  });
});

describe('formatTrecJson', () => {
  it('keeps topic order, full precision and trec_eval names', () => {
    // Prepare: "9" before "10" as given; a plain object would put "10" first
    const sample = evaluation(
      [
        { topicId: '9', values: [measureValue('map', 1 / 3)] },
        { topicId: '10', values: [measureValue('map', 0)] },
      ],
      [measureValue('runid', 'r1'), measureValue('map', 1 / 6)],
    );

    // Act
    const text = formatTrecJson(sample, { perTopic: true, summary: true });

    // Assess
    expect(text.indexOf('"9"')).toBeLessThan(text.indexOf('"10"'));
    expect(JSON.parse(text)).toEqual({
      per_query: { '9': { map: 1 / 3 }, '10': { map: 0 } },
      all: { runid: 'r1', map: 1 / 6 },
    });
  });

  it('leaves out the parts not asked for', () => {
    const sample = evaluation([{ topicId: '1', values: [measureValue('map', 1)] }], [measureValue('map', 1)]);
    expect(JSON.parse(formatTrecJson(sample, { perTopic: false, summary: true }))).toEqual({ all: { map: 1 } });
    expect(JSON.parse(formatTrecJson(sample, { perTopic: true, summary: false }))).toEqual({ per_query: { '1': { map: 1 } } });
  });
});
