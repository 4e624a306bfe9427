import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateRun } from '../../../shared/trec/evaluate.js';
import { formatTrecText } from '../../../shared/trec/format.js';
import { selectMeasures } from '../../../shared/trec/measure-selection.js';
import { readQrels } from '../../../shared/trec/qrels.js';
import { rankTopic } from '../../../shared/trec/rank-topic.js';
import { readRun } from '../../../shared/trec/run.js';
import { RunKernel, reserveInput, type KernelExports } from '../../../shared/trec/run-kernel.js';
import { scoreRunFile } from '../../../shared/trec/score-run-file.js';
import { formatInputError } from '../../../shared/schema/format-input-error.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { qrels as qrelsOf } from './factories.js';

const selection = selectMeasures([
  'map',
  'P.5,10,20',
  'recall.10,100,1000',
  'ndcg',
  'ndcg_cut.10,20',
  'recip_rank',
  'Rprec',
  'num_ret',
  'num_rel_ret',
  'runid',
]);
if (!selection.ok) throw new Error(selection.error);
const measures = selection.value;
const options = { relevanceLevel: 1, gain: 'linear' as const, complete: true };
const output = { json: false, perTopic: true, summary: true };

// Judged documents of three topics, among them ids that are prefixes of others (d1, d10) and one judged negative.
const QRELS_TEXT = [
  ...['301', '302', '303'].flatMap((topic) =>
    ['d1', 'd10', 'd2', 'D9', 'x', 'd100', 'dn'].map((document, index) => `${topic} 0 ${document} ${document === 'dn' ? -1 : index % 3}`),
  ),
  '',
].join('\n');

/** What the JavaScript path alone prints for a run file: readRun, rankTopic, the measures, trec_eval's text, or the error. */
async function javascriptScore(qrelsPath: string, runPath: string): Promise<string> {
  const qrels = await readQrels(qrelsPath);
  if (!qrels.ok) throw new Error('bad qrels');
  const run = await readRun(runPath);
  if (!run.ok) return formatInputError(run.error);
  const result = evaluateRun(qrels.value, run.value, measures, options);
  return result.ok ? formatTrecText(result.value, { perTopic: true, summary: true }) : result.error;
}

/** Doubles of normal size (subnormal scores are left to the JavaScript reader, a case of their own below). */
const normal = fc.double({ min: -100, max: 100, noNaN: true }).filter((value) => value === 0 || Math.abs(value) > 1e-290);
const separator = fc.constantFrom(' ', ' ', ' ', '\t', '  ', '\r');
const line = fc.record({
  topic: fc.constantFrom('301', '302', '303', '999', '30'),
  document: fc.constantFrom('d1', 'd10', 'd2', 'D9', 'x', 'd100', 'dn', 'd3', 'd11', 'zz', 'longer-document-id-17'),
  score: fc
    .oneof(
      fc.integer({ min: -4, max: 4 }).map((value) => (value / 2).toFixed(1)),
      fc.double({ min: -100, max: 100, noNaN: true }).map((value) => value.toFixed(4)),
      fc.constantFrom('3', '3.0', '3.00', '-1.5', '.5', '5.', '+2', '2e0', '20E-1', '0.2e1'),
      // Scores as neural rankers' runs print them: doubles and float32 values at full precision, with exponents below 10^-4.
      normal.map((value) => String(value)),
      fc.float({ min: -100, max: 100, noNaN: true }).map((value) => String(value)),
      normal.map((value) => (value / 1e5).toExponential()),
      normal.map((value) => value.toPrecision(17)),
      normal.map((value) => value.toFixed(20)),
      // A negative zero (-0.0000 from a tiny negative) is left to the JavaScript reader, a case of its own below.
    )
    .map((score) => (/^-0\.?0*$/.test(score) ? score.slice(1) : score)),
  separators: fc.tuple(separator, separator, separator, separator, separator),
  trailer: fc.constantFrom('', '', ' anything after the tag', '\r'),
});
type Line = typeof line extends fc.Arbitrary<infer T> ? T : never;

/** The lines as a run file, each topic's documents kept distinct (a repeated document is a case of its own below). */
function runText(lines: readonly Line[], tag: string): string {
  const seen = new Set<string>();
  const kept = lines.filter((each) => {
    const key = `${each.topic} ${each.document}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return kept
    .map((each, index) => {
      const [a, b, c, d, e] = each.separators;
      // Separators are whitespace but never a lone carriage return before a field (it would end no line): keep \r only before the newline.
      const [sa, sb, sc, sd, se] = [a, b, c, d, e].map((value) => (value === '\r' ? ' \t' : value)) as [
        string,
        string,
        string,
        string,
        string,
      ];
      return `${each.topic}${sa}Q0${sb}${each.document}${sc}${index + 1}${sd}${each.score}${se}${tag}${each.trailer}`;
    })
    .join('\n');
}

/** The kernel, the fast path of the one run-line rule, against readRun, which follows that rule (shared/trec/run-line.ts). */
describe('RunKernel', () => {
  let folder: TempFolder;
  let qrelsPath: string;
  beforeAll(async () => {
    folder = await createTempFolder();
    qrelsPath = await folder.write('qrels', QRELS_TEXT);
  });
  afterAll(async () => {
    await folder.remove();
  });

  it('ranks every qrels topic of any common-shape run file exactly as readRun and rankTopic do', async () => {
    const read = await readQrels(qrelsPath);
    if (!read.ok) throw new Error('bad qrels');
    const kernel = RunKernel.for(read.value);
    expect(kernel).toBeDefined();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 60 }), fc.boolean(), async (lines, finalNewline) => {
        // Prepare
        const text = runText(lines, 'tag-A');
        const file = await folder.write('run', finalNewline ? `${text}\n` : text);

        // Act
        const ranked = kernel?.rank(file);

        // Assess: the kernel takes every such file, and agrees with the JavaScript reader on each topic's grades and the run id
        expect(ranked).toBeDefined();
        if (ranked === undefined) return;
        accepted++;
        const run = await readRun(file);
        if (!run.ok) throw new Error(formatInputError(run.error));
        expect(ranked.runId).toBe(run.value.runId);
        for (const [topicId, judgments] of read.value) {
          const topicRun = run.value.topics.get(topicId);
          const wanted = topicRun === undefined ? undefined : Array.from(rankTopic(topicRun, judgments).grades);
          const got = ranked.rankingOf(topicId);
          expect(got === undefined ? undefined : Array.from(got.grades)).toEqual(wanted);
          if (got !== undefined) expect(got.gradeCounts).toEqual(judgments.gradeCounts);
        }
      }),
      { numRuns: 300, seed: 26_112_026 },
    );
    expect(accepted).toBe(300);
  });

  it.each(['run.float64', 'run.float32-negative', 'run.six-decimals'])(
    "ranks %s of the sample of official runs' scores itself, as the JavaScript reader does",
    async (name) => {
      // Prepare: long, negative and exponent scores, ties (test/fixtures/trec-real-scores)
      const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'trec-real-scores');
      const read = await readQrels(join(fixtures, 'qrels'));
      if (!read.ok) throw new Error('bad qrels');

      // Act
      const ranked = RunKernel.for(read.value)?.rank(join(fixtures, name));
      const score = await scoreRunFile(read.value, join(fixtures, name), measures, options, output);

      // Assess
      expect(ranked).toBeDefined();
      expect(score.ok ? score.value : score.error).toBe(await javascriptScore(join(fixtures, 'qrels'), join(fixtures, name)));
    },
  );

  it('reuses its memory from run to run: a long run, then a short one, then the long one again', async () => {
    // Prepare: scores in no order, equal scores, topics interleaved, 20,000 lines
    const lines = Array.from(
      { length: 20_000 },
      (_, index) =>
        `${['301', '302', '303', '304'][index % 4]} Q0 ${['d', 'D', 'x'][index % 3]}${(index * 7919) % 20_011} 1 ${((index * 31) % 17) / 4} long`,
    );
    const long = await folder.write('long', `${lines.join('\n')}\n`);
    const short = await folder.write('short', '302 Q0 d10 1 2.5 short\n302 Q0 d1 2 2.5 short\n');
    const read = await readQrels(qrelsPath);
    if (!read.ok) throw new Error('bad qrels');
    const kernel = RunKernel.for(read.value);

    // Act
    const texts: [string, string][] = [];
    for (const path of [long, short, long]) {
      const score = await scoreRunFile(read.value, path, measures, options, output);
      texts.push([score.ok ? score.value : score.error, await javascriptScore(qrelsPath, path)]);
    }

    // Assess
    for (const [kernelText, javascriptText] of texts) expect(kernelText).toBe(javascriptText);
    expect(kernel?.rank(short)?.rankingOf('302')?.grades).toEqual(Int32Array.from([1, 0]));
    expect(kernel?.rank(long)?.runId).toBe('long');
  });

  it('reads a run of tens of thousands of topics, most of them not in the qrels, whose table outgrows the memory while it reads', async () => {
    // Prepare: 60,000 lines (about 2 MB), each line a topic of its own but for those of topic 301
    const lines = Array.from({ length: 60_000 }, (_, index) =>
      index % 1000 === 0 ? `301 Q0 d${index} 1 ${index} many` : `topic-${index} Q0 d1 1 0.5 many`,
    );
    const file = await folder.write('many-topics', `${lines.join('\n')}\n`);
    const read = await readQrels(qrelsPath);
    if (!read.ok) throw new Error('bad qrels');

    // Act
    const ranked = RunKernel.for(read.value)?.rank(file);
    const score = await scoreRunFile(read.value, file, measures, options, output);

    // Assess
    expect(ranked?.rankingOf('301')?.grades.length).toBe(60);
    expect(score.ok ? score.value : score.error).toBe(await javascriptScore(qrelsPath, file));
  });

  it('ranks topics with hundreds of judged documents whatever their order: reversed, shuffled, in runs of equal scores', async () => {
    // Prepare: 400 judged documents a topic, all retrieved with 200 others
    const documents = Array.from({ length: 600 }, (_, index) => `doc${index}`);
    const qrelsFile = await folder.write(
      'many-judged',
      documents
        .slice(0, 400)
        .flatMap((document, index) => ['1', '2', '3'].map((topic) => `${topic} 0 ${document} ${index % 4}`))
        .join('\n'),
    );
    const read = await readQrels(qrelsFile);
    if (!read.ok) throw new Error('bad qrels');
    const orders: Record<string, (index: number) => number> = {
      1: (index) => index / 10,
      2: (index) => ((index * 7919) % 601) / 3,
      3: (index) => Math.floor(index / 37),
    };
    const run = await folder.write(
      'many-judged-run',
      `${Object.entries(orders)
        .flatMap(([topic, score]) =>
          documents.map((document, index) => `${topic} Q0 ${document} ${index} ${score(index).toFixed(3)} orders`),
        )
        .join('\n')}\n`,
    );

    // Act
    const ranked = RunKernel.for(read.value)?.rank(run);
    const score = await scoreRunFile(read.value, run, measures, options, output);

    // Assess
    expect(ranked).toBeDefined();
    expect(score.ok ? score.value : score.error).toBe(await javascriptScore(qrelsFile, run));
  });

  it.each([
    ['a comment line', '# written by hand\n301 Q0 d1 1 2.5 t\n'],
    ['a blank line', '301 Q0 d1 1 2.5 t\n\n301 Q0 d2 2 1.5 t\n'],
    ['a leading space', ' 301 Q0 d1 1 2.5 t\n'],
    ['a score past the largest double', '301 Q0 d1 1 1e400 t\n'],
    ['a subnormal score', '301 Q0 d1 1 5e-324 t\n'],
    ['a score with an exponent and no digits after it', '301 Q0 d1 1 2.5e t\n'],
    ['a score of more than 19 digits halfway between two doubles', '301 Q0 d1 1 9007199254740993.0000000000000000001 t\n'],
    ['a negative zero score', '301 Q0 d1 1 -0.0 t\n301 Q0 d10 2 0 t\n'],
    ['a score that is no number', '301 Q0 d1 1 high t\n'],
    ['five fields', '301 Q0 d1 1 2.5\n'],
    ['a document retrieved twice', '301 Q0 d1 1 2.5 t\n301 Q0 d2 2 2.0 t\n301 Q0 d1 3 1.5 t\n'],
    ['a document retrieved twice by a topic the qrels lack', '777 Q0 a 1 2.5 t\n777 Q0 a 2 2.0 t\n'],
    ['a control byte inside a field', '301 Q0 d\u00011 1 2.5 t\n'],
    ['a topic id beyond ASCII', 'tøpic Q0 d1 1 2.5 t\n301 Q0 d1 1 2.5 t\n'],
    ['an empty file', ''],
  ])('leaves a run file with %s to the JavaScript reader, and prints what it prints', async (_described, text) => {
    // Prepare
    const file = await folder.write('declined', text);
    const read = await readQrels(qrelsPath);
    if (!read.ok) throw new Error('bad qrels');

    // Act
    const ranked = RunKernel.for(read.value)?.rank(file);
    const score = await scoreRunFile(read.value, file, measures, options, output);

    // Assess
    expect(ranked).toBeUndefined();
    expect(score.ok ? score.value : score.error).toBe(await javascriptScore(qrelsPath, file));
  });

  it('reads a file with a byte-order mark and CRLF line ends as the JavaScript reader does', async () => {
    // Prepare
    const file = await folder.write('bom', '\ufeff301 Q0 d10 1 2.5 bom\r\n301 Q0 d1 2 2.5 bom\r\n302 Q0 x 1 1 bom\r\n');
    const read = await readQrels(qrelsPath);
    if (!read.ok) throw new Error('bad qrels');

    // Act
    const ranked = RunKernel.for(read.value)?.rank(file);
    const score = await scoreRunFile(read.value, file, measures, options, output);

    // Assess
    expect(ranked?.runId).toBe('bom');
    expect(ranked?.rankingOf('301')?.grades).toEqual(Int32Array.from([1, 0]));
    expect(score.ok ? score.value : score.error).toBe(await javascriptScore(qrelsPath, file));
  });

  it('answers undefined when its memory cannot grow as far as a run file needs, and ranks the next file as before', async () => {
    // Prepare
    const read = await readQrels(qrelsPath);
    if (!read.ok) throw new Error('bad qrels');
    const kernel = RunKernel.for(read.value);
    const file = await folder.write('after-trap', '301 Q0 d10 1 2.5 after\n301 Q0 d1 2 2.5 after\n');

    // Act: room for a file past the 4 GiB a 32-bit memory can hold
    const room = reserveInput((kernel as unknown as { exports: KernelExports }).exports, 2 ** 32 - 1);

    // Assess
    expect(room).toBeUndefined();
    expect(kernel?.rank(file)?.rankingOf('301')?.grades).toEqual(Int32Array.from([1, 0]));
  });

  it('is not made for qrels whose topic ids are not all ASCII: those are compared as decoded text', () => {
    expect(
      RunKernel.for(
        qrelsOf([
          ['301', { d1: 1 }],
          ['tøpic', { d1: 1 }],
        ]),
      ),
    ).toBeUndefined();
    expect(RunKernel.for(qrelsOf([['301', { d1: 1 }]]))).toBeDefined();
  });
});
