import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * The table of ground truth corrected by the judges, in report.md and
 * report.html of `assay run` with the offline lexical chunk_relevance judge,
 * whose verdicts a dataset decides: a passage that repeats the request is
 * relevant to it, one about gardening is not.
 */
const REQUEST = 'How do I rotate the frobnicator access keys';
const RELEVANT = `${REQUEST}: create a second key, move the clients, then delete the first.`;
const IRRELEVANT = 'Gardening notes about tomatoes, basil and watering.';
const AVERAGE_PRECISION = 'retrieval/ground_truth/average_precision';

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(() => folder.remove());

interface Row {
  readonly id: string;
  readonly engine: string;
  /** The retrieved documents, in rank order, and whether each repeats the request. */
  readonly retrieved: readonly { readonly uri: string; readonly relevant: boolean }[];
  readonly labels: readonly string[];
}

/** Runs `assay run` on the rows with chunk_relevance alone and reads the report files it writes. */
async function runRows(name: string, rows: readonly Row[]) {
  const lines = rows.map((row) =>
    JSON.stringify({
      request_id: row.id,
      request: REQUEST,
      engine: row.engine,
      retrieved_context: row.retrieved.map((document) => ({ doc_uri: document.uri, content: document.relevant ? RELEVANT : IRRELEVANT })),
      expected_retrieved_context: row.labels.map((doc_uri) => ({ doc_uri, grade: 1 })),
    }),
  );
  const dataset = await folder.write(`${name}.jsonl`, `${lines.join('\n')}\n`);
  const out = join(folder.path, name);
  const outcome = await runBuiltCli([
    'run',
    dataset,
    '--judges',
    'chunk_relevance',
    '--store',
    join(folder.path, `${name}-store`),
    '--out',
    out,
  ]);
  const [json, markdown, html] = await Promise.all(
    ['report.json', 'report.md', 'report.html'].map((file) => readFile(join(out, file), 'utf8')),
  );
  return { outcome, report: reportSchema.parse(JSON.parse(json ?? '')), markdown: markdown ?? '', html: html ?? '' };
}

/** Five documents of case `id`, the `rank`-th the answer, and the rank the judge finds relevant. */
function ranked(id: string, engine: string, labelledRank: number, judgedRank: number): Row {
  const retrieved = Array.from({ length: 5 }, (_, index) => ({ uri: `${id}-d${index + 1}`, relevant: index + 1 === judgedRank }));
  return { id, engine, retrieved, labels: [`${id}-d${labelledRank}`] };
}

describe('the corrected table of report.md and report.html', () => {
  it('does not flag a judge whose mean ties the corrected one within rounding', async () => {
    // Prepare: every case labelled, so the interval is one point, the human mean; the judge finds the
    // answers at the same ranks in another order: the same mean, summed in another order (1/r each)
    const labelledRanks = [1, 2, 3, 4, 5, 3, 2, 1];
    const judgedRanks = [1, 2, 3, 4, 5, 2, 1, 3];
    const rows = labelledRanks.map((rank, index) => ranked(`q${index + 1}`, 'search', rank, judgedRanks[index] ?? 0));

    // Act
    const { outcome, report, markdown, html } = await runRows('tie', rows);

    // Assess: the two means differ in their last bits only
    expect(outcome.exitCode).toBe(0);
    const estimate = report.corrected?.search?.[AVERAGE_PRECISION]?.chunk_relevance;
    const judgeOnly = estimate?.judge_only ?? Number.NaN;
    const corrected = estimate?.corrected ?? { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
    expect(corrected.low).toBe(corrected.high);
    expect(judgeOnly).not.toBe(corrected.mean);
    expect(Math.abs(judgeOnly - corrected.mean)).toBeLessThan(1e-12);
    // Assess: and no page says the judge rates the engine apart from the labels
    expect(markdown).toContain('| `search` | `average_precision` | `chunk_relevance` | 0.5146 |');
    expect(markdown).not.toContain('than the labelled cases support');
    expect(html).not.toContain('than the labelled cases support');
    expect(html).not.toContain('class="flagged"');
  });

  it("names the judge's value apart from the metrics table's own judge average precision", async () => {
    // Prepare: each engine finds its own answer first; the judge's grades, pooled over both engines,
    // hold both answers, so the judge's trec_eval average precision of each engine is 1/2 where its
    // own chunks' average precision is 1
    const rows = Array.from({ length: 8 }, (_, index) => `q${index + 1}`).flatMap((id) =>
      ['left', 'right'].map((engine) => ({
        id,
        engine,
        retrieved: [
          { uri: `${id}-${engine}-answer`, relevant: true },
          ...Array.from({ length: 4 }, (_, rank) => ({ uri: `${id}-${engine}-${rank}`, relevant: false })),
        ],
        labels: [`${id}-left-answer`, `${id}-right-answer`],
      })),
    );

    // Act
    const { outcome, markdown, html } = await runRows('names', rows);

    // Assess: two numbers, two names
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toMatch(/\nretrieval\/lexical\/chunk_relevance\/average_precision\/average +1\.0000 +1\.0000\n/);
    expect(markdown).toContain('| `retrieval/lexical/chunk_relevance/average_precision/average` | 1.0000 | 1.0000 |');
    expect(markdown).toContain("| engine | metric | judge | judge's labels | human labels (n) | corrected | weight | note |");
    expect(markdown).toContain('| `left` | `average_precision` | `chunk_relevance` | 0.5000 | 0.5000 [0.5000, 0.5000] (8) |');
    const htmlText = html.replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
    for (const page of [markdown, htmlText]) {
      expect(page).toContain("judge's labels: the metric with the judge's grades in place of the human labels");
      expect(page).toContain(
        "not the metrics table's retrieval/<source>/chunk_relevance/average_precision and retrieval/<source>/graded_relevance/ndcg@k",
      );
    }
    expect(html).toContain('<th scope="col" class="number">judge&#39;s labels</th>');
  });
});
