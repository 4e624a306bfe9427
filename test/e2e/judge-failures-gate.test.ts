import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type ChatRequest, type OpenAiTestServer } from '../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
/** Each judge's headline metric, and how many of the 12 requests it is asked about: correctness needs the expected response, which 9 have. */
const JUDGES = {
  chunk_relevance: { metric: 'retrieval/llm_judged/chunk_relevance/precision', asked: 12 },
  correctness: { metric: 'response/llm_judged/correctness/rating', asked: 9 },
} as const;

/**
 * A judge that answers about 30% of its prompts with text that is no JSON: those whose first user
 * message hashes to 0, 1 or 2 modulo 10. The repair request repeats that message, so it gets the same
 * text and the judgment ends in error, deterministically, whatever order the calls come in.
 */
function unparseableForSome(request: ChatRequest, callIndex: number) {
  const prompt = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const digest = createHash('sha256').update(prompt).digest();
  if ((digest[0] ?? 0) % 10 < 3) return { text: 'I would rather talk about the weather.' };
  return catalogOracle(request, callIndex);
}

let folder: TempFolder;
let server: OpenAiTestServer;
/** The dataset run twice at once: with the default --max-failed 0, and with an allowance of every case. */
let gated: BuiltCliOutcome;
let allowed: BuiltCliOutcome;
const out = (name: string) => join(folder.path, `${name}-out`);
const reportOf = async (name: string): Promise<Report> =>
  reportSchema.parse(JSON.parse(await readFile(join(out(name), 'report.json'), 'utf8')));

beforeAll(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({ oracle: unparseableForSome });
  const run = (name: string, ...extra: string[]) =>
    runBuiltCli(
      [
        'run',
        DATASET,
        '--judges',
        'chunk_relevance,correctness',
        '--store',
        join(folder.path, `${name}-store`),
        '--out',
        out(name),
        ...extra,
      ],
      { env: { OPENAI_API_KEY: 'sk-judge-failures-Qw3Er5Ty7', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' } },
    );
  [gated, allowed] = await Promise.all([run('gated'), run('allowed', '--max-failed', '12')]);
}, 30_000);
afterAll(async () => {
  await server.close();
  await folder.remove();
});

describe('a judge that answers some requests with unparseable text', () => {
  it('fails those cases for that judge: exit 1, named on stderr and listed with the judge in report.json, the other metrics kept', async () => {
    // Assess: one line on stderr, last, naming the cases lacking a judgment and the first of them
    expect(gated.exitCode).toBe(1);
    const lastLine = gated.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(lastLine).toMatch(
      /^assay run: \d+ of 12 cases lack a judgment \(more than --max-failed 0\); the first: q\d\d: judge (chunk_relevance|correctness) \(engines? (bm25|hybrid|bm25, hybrid)\): .*invalid answer after one repair request.*; the report lists them all \(report\.json failed_cases\)$/,
    );
    const report = await reportOf('gated');
    const judgeEntries = report.failed_cases.filter((entry) => entry.judge !== undefined);
    const lacking = new Set(judgeEntries.map((entry) => entry.case_id));
    expect(judgeEntries).toEqual(report.failed_cases);
    expect(lacking.size).toBeGreaterThan(0);
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: lacking.size });
    expect(lastLine).toContain(`${lacking.size} of 12 cases lack a judgment`);
    // Each judge's count leaves out the cases it failed on, engine by engine, while the ground truth keeps them
    // (the dataset labels 9 of its 12 requests).
    for (const [judge, { metric, asked }] of Object.entries(JUDGES)) {
      for (const engine of ['bm25', 'hybrid']) {
        const statistics = report.engines[engine] ?? {};
        const failedOn = judgeEntries.filter((entry) => entry.judge === judge && entry.engines?.includes(engine)).length;
        expect(statistics[`${metric}/count`]).toBe(asked - failedOn);
        expect(statistics[`${metric.replace(/\/[^/]+$/, '')}/error_count`]).toBe(failedOn);
        expect(statistics['retrieval/ground_truth/ndcg@10/count']).toBe(9);
      }
    }
    expect(judgeEntries.some((entry) => entry.judge === 'correctness')).toBe(true);
    expect(judgeEntries.some((entry) => entry.judge === 'chunk_relevance')).toBe(true);
  });

  it('passes under a --max-failed that allows them, and says so on stderr and with the n in report.md', async () => {
    // Assess: the same judgments (the oracle answers by the prompt), now within the allowance
    expect(allowed.exitCode).toBe(0);
    const report = await reportOf('allowed');
    expect(report.failed_cases).toEqual((await reportOf('gated')).failed_cases);
    const lacking = report.cases.judge_failed ?? 0;
    expect(allowed.stderr).toMatch(
      new RegExp(
        `^assay: warning: ${lacking} of 12 cases lack a judgment \\((chunk_relevance: \\d+, )?(correctness: \\d+)?\\), within --max-failed 12: those judges' metrics are averaged over fewer cases than were evaluated; report\\.json failed_cases lists them$`,
        'm',
      ),
    );
    expect(allowed.stderr).not.toMatch(/^assay run: /m);
    const markdown = await readFile(join(out('allowed'), 'report.md'), 'utf8');
    expect(markdown).toContain(`, ${lacking} lacking a judgment`);
    expect(markdown).toMatch(/\| `response\/llm_judged\/correctness\/rating\/percentage` \|.* \(n=\d+\)/);
    expect(markdown).toContain(`## Cases lacking a judgment (${lacking})`);
    expect(allowed.stdout).toMatch(/\(n=\d+\)/);
  });
});
