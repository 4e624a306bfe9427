import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { seededRandom } from '../../shared/statistics/seeded-random.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay run --qrels` on a TREC collection whose human qrels cover half its
 * topics, with queries and a corpus so that the relevance judges grade every
 * topic: the report corrects each run's ground-truth metrics by the judges
 * (the judged topics the population, the human-labelled ones the sample), and
 * ranks the two judges.
 */
let folder: TempFolder;
const TOPICS = 20;
const LABELLED = 10;
const WORDS =
  'apple banana cherry delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');

beforeAll(async () => {
  folder = await createTempFolder();
  const random = seededRandom(4);
  const pick = (count: number): string[] => Array.from({ length: count }, () => WORDS[random.nextBelow(WORDS.length)] as string);
  const queries: string[] = [];
  const corpus: string[] = [];
  const qrels: string[] = [];
  const runs: string[][] = [[], []];
  for (let topic = 1; topic <= TOPICS; topic++) {
    const query = pick(3);
    queries.push(`t${topic}\t${query.join(' ')}`);
    for (let document = 1; document <= 8; document++) {
      // A document's grade is how many of the query's words it holds: what the lexical judges see too.
      const grade = random.nextBelow(4);
      corpus.push(JSON.stringify({ _id: `t${topic}-d${document}`, text: [...query.slice(0, grade), ...pick(6 - grade)].join(' ') }));
      if (topic <= LABELLED) qrels.push(`t${topic} 0 t${topic}-d${document} ${grade}`);
    }
    runs.forEach((lines, run) => {
      const order = Array.from({ length: 8 }, (_, index) => index + 1);
      for (let index = order.length - 1; index > 0; index--) {
        const other = random.nextBelow(index + 1);
        [order[index], order[other]] = [order[other] as number, order[index] as number];
      }
      order.forEach((document, rank) => {
        lines.push(`t${topic} Q0 t${topic}-d${document} ${rank + 1} ${10 - rank} sys${run}`);
      });
    });
  }
  await folder.write('queries.tsv', `${queries.join('\n')}\n`);
  await folder.write('corpus.jsonl', `${corpus.join('\n')}\n`);
  await folder.write('qrels.txt', `${qrels.join('\n')}\n`);
  await Promise.all(runs.map((lines, run) => folder.write(`run${run}.txt`, `${lines.join('\n')}\n`)));
});
afterAll(() => folder.remove());

describe('assay run --qrels with human qrels for some topics and judges for all', () => {
  it("corrects each run's ground-truth metrics by the judges over every topic, and ranks the judges", async () => {
    // Act
    const outcome = await runBuiltCli(
      [
        'run',
        '--qrels',
        'qrels.txt',
        '--run',
        'run0.txt',
        '--run',
        'run1.txt',
        '--queries',
        'queries.tsv',
        '--corpus',
        'corpus.jsonl',
        '--out',
        'out',
        '--store',
        'store',
      ],
      { cwd: folder.path },
    );

    // Assess
    expect(outcome.exitCode).toBe(0);
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'out', 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: TOPICS, evaluated: TOPICS, failed: 0, missing: 0, judge_failed: 0 });
    for (const engine of ['sys0', 'sys1']) {
      const ndcg = report.corrected?.[engine]?.['retrieval/ground_truth/ndcg@10']?.graded_relevance;
      expect(ndcg).toMatchObject({ labelled: LABELLED, cases: TOPICS, population: 'finite', level: 0.95 });
      // The human-only mean is the ground-truth average over the labelled topics, as the report's metrics give it.
      expect(ndcg?.human_only?.mean).toBeCloseTo(report.engines[engine]?.['retrieval/ground_truth/ndcg@10/average'] ?? Number.NaN, 12);
      expect(ndcg?.corrected?.high).toBeGreaterThan(ndcg?.corrected?.low ?? Number.POSITIVE_INFINITY);
      expect(report.corrected?.[engine]?.['retrieval/ground_truth/average_precision']?.chunk_relevance).toMatchObject({
        labelled: LABELLED,
        cases: TOPICS,
      });
    }
    expect(
      report.corrected_differences?.map((difference) => [difference.engines, difference.metric, difference.judge, difference.population]),
    ).toContainEqual([['sys0', 'sys1'], 'retrieval/ground_truth/ndcg@10', 'graded_relevance', 'superpopulation']);
    // chunk_relevance (yes/no) corrects no NDCG: the judges are ranked on average precision.
    expect(report.judge_ranking?.metric).toBe('retrieval/ground_truth/average_precision');
    expect(report.judge_ranking?.by_width.map((judge) => judge.name).sort()).toEqual(['chunk_relevance', 'graded_relevance']);
    const markdown = await readFile(join(folder.path, 'out', 'report.md'), 'utf8');
    expect(markdown).toContain('## Ground truth corrected by the judges');
    expect(markdown).toContain('## Choosing a judge');
  });
});
