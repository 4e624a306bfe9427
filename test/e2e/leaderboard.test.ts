import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementReportSchema } from '../../shared/schema/agreement.js';
import { compareJsonSchema } from '../../shared/schema/compare-json.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * The leaderboard of a sweep through the built CLI: `assay run` over four
 * engines (the offline lexical judge grading every case, human labels on 14
 * of 40), its report.json, report.md and report.html, `assay compare` of the
 * run with itself, and `assay agreement` over four runs of a TREC collection.
 */
const NDCG = 'retrieval/ground_truth/ndcg@10';
const TOPICS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'theta', 'kappa'];
/** Each engine's relevant documents among its 5, before the case's own wobble: good finds most, poor none. */
const ENGINES = [
  ['good', 4],
  ['fair', 2],
  ['poor', 0],
  ['fair2', 2],
] as const;

let folder: TempFolder;
let report: Report;

/** 40 cases of the four engines; a relevant document names the case's topic, so the lexical judge grades it relevant. */
function sweepDataset(): string {
  const rows: string[] = [];
  for (let index = 0; index < 40; index++) {
    const id = `q${String(index).padStart(2, '0')}`;
    const topic = TOPICS[index % TOPICS.length] as string;
    const lists = ENGINES.map(([engine, relevant], position) => {
      const found = relevant + (((index + position) % 3) - 1);
      return {
        engine,
        documents: Array.from({ length: 5 }, (_, rank) => ({
          doc_uri: `${id}-${engine}-${rank}`,
          content: rank < found ? `${topic} ${topic} answer about ${topic}` : 'unrelated text here',
        })),
      };
    });
    const expected = lists.flatMap(({ documents }) =>
      documents.filter((document) => document.content.startsWith(topic)).map((document) => ({ doc_uri: document.doc_uri, grade: 1 })),
    );
    for (const { engine, documents } of lists) {
      rows.push(
        JSON.stringify({
          request_id: id,
          request: `what is ${topic}`,
          engine,
          retrieved_context: documents,
          ...(index < 14 ? { expected_retrieved_context: expected } : {}),
        }),
      );
    }
  }
  return `${rows.join('\n')}\n`;
}

beforeAll(async () => {
  folder = await createTempFolder();
  const dataset = await folder.write('sweep.jsonl', sweepDataset());
  const run = await runBuiltCli(['run', dataset, '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')]);
  expect(run.exitCode).toBe(0);
  report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'out', 'report.json'), 'utf8')));
});
afterAll(() => folder.remove());

describe('a sweep of four engines', () => {
  it("ranks them in report.json, nDCG@10 by its means corrected by the judge's grades, and separates the pairs that differ", () => {
    // Assess
    const board = report.leaderboards?.find((candidate) => candidate.metric === NDCG);
    expect(board?.judge).toBe('graded_relevance');
    expect(board?.ranking.map((system) => [system.name, system.rank, system.estimate, system.n, system.labelled])).toEqual([
      ['good', 1, 'corrected', 40, 14],
      ['fair', 2, 'corrected', 40, 14],
      ['fair2', 3, 'corrected', 40, 14],
      ['poor', 4, 'corrected', 40, 14],
    ]);
    expect(board?.adjustment).toEqual({ method: 'benjamini-hochberg', family: 'pairs', tests: 6, alpha: 0.05 });
    // The two engines of the same quality are the pair it cannot tell apart.
    const unseparated = board?.pairs.filter((pair) => !pair.separated).map((pair) => pair.names);
    expect(unseparated).toEqual([['fair', 'fair2']]);
    expect(board?.ranking.map((system) => system.letters.join(''))).toEqual(['a', 'b', 'b', 'c']);
    // A metric the judge alone gives is ranked by its plain means.
    expect(
      report.leaderboards?.find((candidate) => candidate.metric === 'retrieval/lexical/graded_relevance/ndcg@10')?.ranking[0]?.estimate,
    ).toBe('mean');
  });

  it('shows the leaderboard in report.md and report.html', async () => {
    // Act
    const [markdown, html] = await Promise.all(
      ['report.md', 'report.html'].map((name) => readFile(join(folder.path, 'out', name), 'utf8')),
    );

    // Assess
    expect(markdown).toContain(
      [
        '### `retrieval/ground_truth/ndcg@10`, corrected by `graded_relevance`',
        '',
        '| engine | rank | mean | letters | better than |',
        '| --- | ---: | ---: | --- | --- |',
      ].join('\n'),
    );
    expect(markdown).toMatch(/\n\| `good` \| 1 \| 0\.\d{4} \| a \| 2–4 \|\n\| `fair` \| 2 \| 0\.\d{4} \| b \| 4 \|\n/);
    expect(markdown).toContain('Separates 5 of the 6 pairs; engines that share a letter are not told apart.');
    expect(html).toContain('<section id="leaderboard" aria-labelledby="leaderboard-heading"><h2 id="leaderboard-heading">Leaderboard</h2>');
    expect(html).toContain('<summary>Every pair (6)</summary>');
  });

  it("gives run B's leaderboards in assay compare, as its report.json has them", async () => {
    // Act
    const out = join(folder.path, 'out');
    const [json, text] = await Promise.all([
      runBuiltCli(['compare', out, out, '--metric', NDCG, '--json']),
      runBuiltCli(['compare', out, out, '--metric', NDCG]),
    ]);

    // Assess
    expect(json.exitCode).toBe(0);
    const compared = compareJsonSchema.parse(JSON.parse(json.stdout));
    expect(compared.leaderboards).toEqual(report.leaderboards?.filter((board) => board.metric === NDCG));
    expect(text.stdout).toContain(
      '\nleaderboard of B: retrieval/ground_truth/ndcg@10, corrected by graded_relevance\nengine  rank    mean  letters  better than\n',
    );
  });
});

describe('assay agreement over four runs', () => {
  /** 24 topics of 10 documents; the first 3 of each relevant. Run k puts them at ranks from 1 + 3k down: better runs find them higher. */
  async function collection(): Promise<{ human: string; judge: string; runs: string[] }> {
    const topics = Array.from({ length: 24 }, (_, index) => `t${String(index).padStart(2, '0')}`);
    const judged = topics.flatMap((topic) =>
      Array.from({ length: 10 }, (_, document) => `${topic} 0 ${topic}-d${document} ${document < 3 ? 1 : 0}`),
    );
    const human = await folder.write('human.qrels', `${judged.filter((_, index) => Math.floor(index / 10) % 2 === 0).join('\n')}\n`);
    const judge = await folder.write('judge.qrels', `${judged.join('\n')}\n`);
    const runs = await Promise.all(
      [0, 1, 2, 3].map((quality) => {
        const lines = topics.flatMap((topic, topicIndex) => {
          const order = Array.from({ length: 10 }, (_, document) => document);
          // The relevant documents pushed down by the run's quality and the topic's wobble.
          const shift = quality * 2 + (topicIndex % 3);
          const ranked = [...order.slice(3, 3 + shift), ...order.slice(0, 3), ...order.slice(3 + shift)];
          return ranked.map((document, rank) => `${topic} Q0 ${topic}-d${document} ${rank + 1} ${10 - rank} run${quality}`);
        });
        return folder.write(`run${quality}.txt`, `${lines.join('\n')}\n`);
      }),
    );
    return { human, judge, runs };
  }

  it('ranks the runs by their corrected means and tests each pair on the topics both are scored on', async () => {
    // Prepare
    const { human, judge, runs } = await collection();
    const args = ['agreement', '--human', human, '--judge', judge, ...runs.flatMap((run) => ['--run', run])];

    // Act
    const [json, text] = await Promise.all([runBuiltCli([...args, '--json']), runBuiltCli(args)]);

    // Assess
    expect(json.exitCode).toBe(0);
    const agreement = agreementReportSchema.parse(JSON.parse(json.stdout));
    const [board] = agreement.leaderboards ?? [];
    expect(board).toMatchObject({ metric: 'ndcg_cut_10', judge: 'judge', unit: 'topics' });
    expect(board?.ranking.map((system) => [system.name, system.n, system.labelled])).toEqual([
      ['run0', 24, 12],
      ['run1', 24, 12],
      ['run2', 24, 12],
      ['run3', 24, 12],
    ]);
    expect(board?.pairs.every((pair) => pair.test === 'corrected' && pair.separated)).toBe(true);
    expect(text.stdout).toContain('leaderboard: ndcg_cut_10, corrected by judge\nrun   rank    mean  letters  better than\n');
  });
});
