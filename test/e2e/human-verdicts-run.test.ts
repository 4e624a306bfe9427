import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { addCase, correctedMean, emptyPairedSums } from '../../shared/statistics/prediction-powered-mean.js';
import { startOpenAiTestServer, type ChatRequest, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { describeNoInterval } from '../../shared/statistics/corrected-estimate.js';

/**
 * `assay run` (the built bin) on a dataset whose rows carry a person's
 * verdicts on the answers (`human_verdicts`), judged by the correctness judge
 * of the local test server (loopback only): report.json's `corrected` holds
 * the judge's verdict rate corrected by the human verdicts, and report.md
 * shows it.
 *
 * 16 answers, 6 of them wrong; the judge says yes to every answer that
 * names the steps, so it also passes 2 wrong answers that name them wrongly.
 * People gave verdicts on 10 of the answers.
 */
const CASES = 16;
const WRONG = new Set([1, 4, 6, 9, 12, 15]);
/** Wrong answers the judge still passes. */
const FOOLS_THE_JUDGE = new Set([4, 12]);
const LABELLED = new Set([0, 1, 2, 4, 5, 6, 8, 9, 11, 12]);

let folder: TempFolder;
let server: OpenAiTestServer;
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({
    oracle: (request: ChatRequest) => {
      const prompt = [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
      const answer = /Answer under test:\n([^\n]*)/.exec(prompt)?.[1] ?? '';
      const rating = answer.includes('steps:') ? 'yes' : 'no';
      return { json: { rationale: `the answer ${rating === 'yes' ? 'gives' : 'lacks'} the steps`, rating } };
    },
  });
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

function answerOf(index: number): string {
  if (!WRONG.has(index)) return `Follow these steps: create a second key, move clients to it, then delete key ${index}.`;
  return FOOLS_THE_JUDGE.has(index)
    ? `Follow these steps: delete key ${index} first, then create another.`
    : `Key ${index} cannot be rotated.`;
}

/** `assay run` (the built bin, the correctness judge) of the 16 answers, `verdictOf(index)` the people's verdict on each labelled one. */
async function runWithVerdicts(verdictOf: (index: number) => string | number): Promise<{ result: BuiltCliOutcome; out: string }> {
  const rows = Array.from({ length: CASES }, (_, index) => ({
    request_id: `q${String(index).padStart(2, '0')}`,
    request: `How do I rotate access key ${index}?`,
    engine: 'rag',
    response: answerOf(index),
    expected_response: 'Create a second key, move every client to it, then delete the old key.',
    ...(LABELLED.has(index) ? { human_verdicts: { correctness: verdictOf(index) } } : {}),
  }));
  const dataset = await folder.write('answers.jsonl', rows.map((row) => JSON.stringify(row)).join('\n'));
  const config = await folder.write('config.yaml', 'judges: [correctness]\n');
  const out = join(folder.path, 'report');
  const result = await runBuiltCli(['run', dataset, '--config', config, '--store', join(folder.path, 'store'), '--out', out], {
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
  });
  return { result, out };
}

describe('a run with human verdicts on the answers and an answer judge', () => {
  it("corrects the judge's verdict rate by the human verdicts in report.json and shows it in report.md", async () => {
    // Act: the people's verdicts right on each labelled answer
    const { result, out } = await runWithVerdicts((index) => (WRONG.has(index) ? 'no' : 'yes'));

    // Assess: the run judged every answer through the test server
    expect(result.stderr).not.toMatch(/ {4}at /);
    expect(result.exitCode).toBe(0);
    expect(server.log).toHaveLength(CASES);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    const statistics = report.engines.rag ?? {};
    expect(statistics['response/llm_judged/correctness/rating/percentage']).toBe(12 / 16);
    expect(statistics['response/human/correctness/rating/percentage']).toBe(5 / 10);
    expect(statistics['response/human/correctness/rating/count']).toBe(10);

    // The estimate: the judge's rating on all 16 answers, the human verdict on the 10, yes = 1
    const sums = emptyPairedSums();
    for (let index = 0; index < CASES; index++) {
      const judged = WRONG.has(index) && !FOOLS_THE_JUDGE.has(index) ? 0 : 1;
      addCase(sums, judged, LABELLED.has(index) ? (WRONG.has(index) ? 0 : 1) : undefined);
    }
    const expected = correctedMean(sums, { level: 0.95, minLabelled: 8 });
    if (!expected.ok) throw new Error(describeNoInterval(expected.error, 'cases'));
    const estimate = report.corrected?.rag?.['response/human/correctness/rating']?.correctness;
    expect(estimate).toMatchObject({ labelled: 10, cases: 16, population: 'finite', level: 0.95, judge_only: 0.75 });
    expect(estimate?.corrected?.mean).toBeCloseTo(expected.value.corrected.mean, 12);
    expect(estimate?.corrected?.low).toBeCloseTo(expected.value.corrected.low, 12);
    expect(estimate?.corrected?.high).toBeCloseTo(expected.value.corrected.high, 12);
    expect(estimate?.corrected?.low).toBeLessThan(estimate?.corrected?.high ?? Number.NaN);
    // The judge passes wrong answers: its own rate is above what the verdicts support
    expect(estimate?.corrected?.mean).toBeLessThan(0.75);
    expect(estimate?.bias).toBeCloseTo(0.2, 12);

    // report.md: the row of the verdict rate in the corrected table, and the rates in the metrics table
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('## Ground truth corrected by the judges');
    expect(markdown).toMatch(
      /\n\| `rag` \| `human\/correctness` \| `correctness` \| 0\.7500 \| 0\.5000 \[\d\.\d{4}, \d\.\d{4}\] \(10\) \| 0\.\d{4} \[\d\.\d{4}, \d\.\d{4}\] \| \d\.\d{2} \|/,
    );
    expect(markdown).toMatch(/\n\| `response\/human\/correctness\/rating\/percentage` \| 50\.0% \(n=10\) \|/);
  });

  it('counts a verdict of the wrong kind for the judge as an error of the case, out of the rate and the correction', async () => {
    // Prepare: three of the ten people's verdicts given as numbers, which a yes/no judge's rate cannot hold
    const numbered = new Set([0, 2, 5]);

    // Act
    const { result, out } = await runWithVerdicts((index) => (numbered.has(index) ? 5 : WRONG.has(index) ? 'no' : 'yes'));

    // Assess: the rate over the seven yes/no verdicts, the three numbers counted as errors, not dropped without a word
    expect(result.exitCode).toBe(0);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    const statistics = report.engines.rag ?? {};
    expect(statistics['response/human/correctness/rating/count']).toBe(7);
    expect(statistics['response/human/correctness/rating/percentage']).toBe(2 / 7);
    expect(statistics['response/human/correctness/error_count']).toBe(3);
    // The correction pairs the judge with the seven verdicts of its kind only: a 5 read as a rate would pass 1
    expect(report.corrected?.rag?.['response/human/correctness/rating']?.correctness).toMatchObject({ labelled: 7, cases: 16 });
    const lines = (await readFile(join(out, 'cases.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { case_id: string; metrics: Record<string, unknown> });
    expect(lines.find((line) => line.case_id === 'q00')?.metrics['response/human/correctness/error_message']).toBe(
      'the human verdict 5 is a number, but correctness rates yes or no: give "yes" or "no" in human_verdicts.correctness',
    );
  });
});
