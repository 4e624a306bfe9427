import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRun, type TopicRun } from '../../../shared/trec/run.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

describe('readRun', () => {
  let folder: TempFolder;
  beforeAll(async () => {
    folder = await createTempFolder();
  });
  afterAll(async () => {
    await folder.remove();
  });

  it('keeps file order, ignores the rank column and text after the tag, and reports the last tag as runid', async () => {
    // Prepare: topics interleaved, as in trec_eval's results.trunc
    const file = await folder.write(
      'run.txt',
      [
        '301\tQ0\tdocA\t99\t  2.138276\tfirst more junk at',
        '303 Q0 docX 1 1.857372 first end of lines.',
        '# comment',
        '',
        '301 Q0 docB 1 2e0 first',
        '301 Q0 docC 7 -0.5 last',
      ].join('\n'),
    );

    // Act
    const result = await readRun(file);

    // Assess
    expect(result.ok).toBe(true);
    const run = result.ok ? result.value : { topics: new Map<string, TopicRun>(), runId: '' };
    const topics = [...run.topics].map(([topicId, topic]) => [topicId, topic.documents.texts(), topic.scores]);
    expect(topics).toEqual([
      ['301', ['docA', 'docB', 'docC'], [2.138276, 2, -0.5]],
      ['303', ['docX'], [1.857372]],
    ]);
    expect(run.runId).toBe('last');
  });

  it('splits fields on C whitespace only, skips blank and first-column comment lines, and reads a last line without a newline', async () => {
    // Prepare: \v and \f separate fields; a control byte (\x01) belongs to its field; CRLF ends lines
    const file = await folder.write(
      'whitespace-run.txt',
      ['1 Q0 d\x01x 1 3 tag', ' \t ', '#1 Q0 skipped 1 9 tag', '1\vQ0\fd2 2 2 tag\r', '1 Q0 d3 3 1 end'].join('\n'),
    );

    // Act
    const result = await readRun(file);

    // Assess
    expect(
      result.ok && [result.value.topics.get('1')?.documents.texts(), result.value.topics.get('1')?.scores, result.value.runId],
    ).toEqual([['d\x01x', 'd2', 'd3'], [3, 2, 1], 'end']);
  });

  it('names the line of an error after blank and comment lines, and a short last line without a newline', async () => {
    const file = await folder.write('short-last-run.txt', '1 Q0 d1 1 3 tag\n\n# note\n1 Q0 d2 2');
    const result = await readRun(file);
    expect(result).toMatchObject({
      ok: false,
      error: { line: 4, message: 'expected at least 6 fields "qid iter docno rank score tag", found 4' },
    });
  });

  it('reports the tag of the last document line as runid when the file spans several reads and ends with blank and comment lines', async () => {
    // Prepare: about 2.5 MiB of lines tagged "early", then one tagged "late" and no document line after it
    const lines = Array.from({ length: 60_000 }, (_, index) => `${index % 50} Q0 document-${index} 1 ${index / 7} early`);
    const file = await folder.write('long-run.txt', [...lines, '7 Q0 final 1 0.5 late', '', '# done', ''].join('\n'));

    // Act
    const result = await readRun(file);

    // Assess
    expect(result.ok && [result.value.runId, result.value.topics.get('7')?.documents.size]).toEqual(['late', 1201]);
  });

  it('tells a new topic from the last one when its line comes in the next read at the same place in the buffer', async () => {
    // Prepare: a last line without a newline is read into the buffer where the first line was
    const unfinished = await folder.write('unfinished.txt', '301 Q0 d1 1 0.5 tag\n302 Q0 d1 2 0.0 tag');
    // Lines of one width, 1 MiB a read: the line after each read's end starts where that read's first line did
    const width = 32;
    const perRead = (1 << 20) / width;
    const fixed = Array.from({ length: perRead + 10 }, (_, index) =>
      `${index < perRead ? 'A' : 'B'} Q0 ${String(index).padStart(12, '0')} 1 0.5 t`.padEnd(width - 1, 'x'),
    );
    const aligned = await folder.write('aligned.txt', `${fixed.join('\n')}\n`);

    // Act
    const results = await Promise.all([readRun(unfinished), readRun(aligned)]);

    // Assess
    expect(
      results.map((result) => result.ok && [...result.value.topics].map(([topicId, topic]) => [topicId, topic.documents.size])),
    ).toEqual([
      [
        ['301', 1],
        ['302', 1],
      ],
      [
        ['A', perRead],
        ['B', 10],
      ],
    ]);
  });

  it('decodes UTF-8 docnos', async () => {
    const file = await folder.write('utf8-run.txt', '1 Q0 caf\u00e9-\u{1F600} 1 1 tag\n');
    const result = await readRun(file);
    expect(result.ok && result.value.topics.get('1')?.documents.texts()).toEqual(['caf\u00e9-\u{1F600}']);
  });

  it.each([
    ['five fields', '301 Q0 d1 1 2.5\n', 1, 'expected at least 6 fields "qid iter docno rank score tag", found 5'],
    ['a score that is not a number', '301 Q0 d1 1 2.5 tag\n301 Q0 d2 2 high tag\n', 2, 'expected a number, got "high"'],
    [
      'a docno retrieved twice',
      '301 Q0 d1 1 2.5 tag\n302 Q0 d1 1 2.5 tag\n301 Q0 d1 3 1.5 tag\n',
      3,
      'topic 301 retrieves document d1 twice',
    ],
  ])('stops at %s with an error naming the line', async (_described, content, line, message) => {
    // Prepare
    const file = await folder.write('bad-run.txt', content);

    // Act
    const result = await readRun(file);

    // Assess
    expect(result).toMatchObject({ ok: false, error: { file, line, message } });
  });
});
