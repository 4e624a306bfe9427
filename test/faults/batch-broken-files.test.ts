import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/schema/report.js';
import {
  batchTokensOf,
  FAULT_DATASET,
  FAULT_JUDGES,
  FAULT_KEY,
  faultRun,
  runIdOf,
  startFaultyProvider,
  type FaultRun,
  type FaultyProvider,
} from '../support/batch-fault-run.js';
import type { Oracle } from '../support/chat-completion-answer.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiBatchServer } from '../support/openai-batch-server.js';

/**
 * A batch-judged run through the built bin when the provider writes its
 * files badly, fails a job half-way, echoes the key and sends text that
 * would drive a terminal: nothing paid for is lost, every metric is the
 * clean run's, no line is sent twice, the tokens reported are the tokens
 * billed, and the key is in no file and no output.
 */
let provider: FaultyProvider;
let clean: { report: Report; requests: number };
const runs: FaultRun[] = [];

async function newRun(): Promise<FaultRun> {
  const run = await faultRun(provider.split.baseUrl);
  runs.push(run);
  return run;
}

beforeAll(async () => {
  provider = await startFaultyProvider();
  const reference = await newRun();
  const outcome = await reference.run();
  if (outcome.exitCode !== 0) throw new Error(`the clean run exited ${outcome.exitCode}: ${outcome.stderr}`);
  clean = { report: await reference.report(), requests: [...provider.batch.batches.values()][0]?.toObject().request_counts?.total ?? 0 };
}, 60_000);
afterEach(() => provider.batch.setFaults({}));
afterAll(async () => {
  await Promise.all(runs.map((run) => run.remove()));
  await provider.close();
});

/** Each request id's lines sent from `before` (a snapshot of the server's counts) on: a run's own. */
function sentSince(before: ReadonlyMap<string, number>): number[] {
  return [...provider.batch.sent].map(([id, times]) => times - (before.get(id) ?? 0)).filter((times) => times > 0);
}

/** The batches a run created: those after the ones before it. */
function batchesSince(before: number) {
  return [...provider.batch.batches.values()].slice(before).map((batch) => batch.toObject());
}

describe('a batch job whose files the provider wrote badly', () => {
  it('keeps every readable answer and sends again only the requests of unreadable lines, each once', async () => {
    // Prepare: the first job's output holds a line not JSON, a line cut off, a line of no request, a request answered twice and an error under 200
    const run = await newRun();
    const before = provider.batch.batches.size;
    const sentBefore = new Map(provider.batch.sent);
    provider.batch.setFaults({ notJsonLines: 1, cutLastLine: true, unknownIdLines: 1, duplicateLines: 1, errorBodyUnder200: 1 });
    const cleared = setInterval(() => {
      if (provider.batch.batches.size > before + 1) provider.batch.setFaults({});
    }, 5);

    // Act
    const outcome = await run.run().finally(() => clearInterval(cleared));
    const status = await run.assay(['status', runIdOf(outcome)]);

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [first, second] = batchesSince(before);
    const broken = provider.batch.brokenLines.filter((line) => line.batchId === first?.id);
    // Unknown ids were never sent: of the broken lines, those of requests of the job are sent again
    const resent = new Set(broken.filter((line) => provider.batch.sent.has(line.custom_id)).map((line) => line.custom_id));
    expect(resent.size).toBeGreaterThanOrEqual(3);
    expect(second?.request_counts?.total).toBe(resent.size);
    // Each request sent in one line: the unique requests, then those sent again as requests of their own
    expect(sentSince(sentBefore)).toEqual(new Array(clean.requests + resent.size).fill(1));
    const report = await run.report();
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(clean.report.engines));
    expect(report.cases).toMatchObject({ total: 12, evaluated: 12, failed: 0, missing: 0 });
    expect(outcome.stderr).toMatch(/lines unread \(.*1 not JSON.*\), their requests sent again/);
    expect(status.stdout).toMatch(/batch job batch_test\d+ \(round 0, \d+ requests\): completed, .*answers collected, \d+ lines unread \(/);
  }, 60_000);

  it('keeps the answered lines of a job that failed half-way, redacts the key it echoed, and shows its text escaped', async () => {
    // Prepare: the job fails after half its lines, echoing the key in its errors, with control characters in its words
    const run = await newRun();
    const before = provider.batch.batches.size;
    const sentBefore = new Map(provider.batch.sent);
    const billedBefore = provider.batch.billed();
    const half = Math.ceil(clean.requests / 2);
    provider.batch.setFaults({ failAfterLines: half, echoKey: true, errorMessageSuffix: '\u001b]0;pwned\u0007', statusSuffix: '\u202e' });

    // Act
    const outcome = await run.run();
    const status = await run.assay(['status', runIdOf(outcome)]);

    // Assess: the failed job's lines kept, only the rest sent again
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [first, second] = batchesSince(before);
    expect(first).toMatchObject({ status: 'failed', request_counts: { completed: half } });
    expect(second?.request_counts?.total).toBe(clean.requests - half);
    expect(sentSince(sentBefore)).toEqual(new Array(clean.requests + clean.requests - half).fill(1));
    const report = await run.report();
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(clean.report.engines));
    // Every token the provider billed, counted once
    const billed = provider.batch.billed();
    expect(batchTokensOf(report)).toEqual({
      input: billed.input_tokens - billedBefore.input_tokens,
      output: billed.output_tokens - billedBefore.output_tokens,
    });
    // The key in no file and no output; the provider's words escaped on the terminal
    const secret = FAULT_KEY.slice(9, 25);
    for (const file of await run.files()) expect(file.text, file.path).not.toContain(secret);
    for (const text of [outcome.stdout, outcome.stderr, status.stdout, status.stderr]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
    }
    expect(outcome.stderr).toContain('in_progress\\u202e');
    expect(status.stdout).toMatch(/failed, \d+\/\d+ done, .*\[redacted\].*\\x1b\]0;pwned\\x07/);
  }, 60_000);
});

describe('the cost of a batch-judged run', () => {
  it('counts the tokens of every answer the provider delivered, the repaired ones and those a second round reads from the cache', async () => {
    // Prepare: a few first answers are not JSON, so their judgments need a repair request in a second round
    const firstAnswerBroken: Oracle = (request, index) => {
      const first = request.messages.length === 2;
      const picked = createHash('sha256').update(JSON.stringify(request.messages)).digest()[0] ?? 0;
      return first && picked < 24 ? { text: 'I think it is relevant, yes.' } : catalogOracle(request, index);
    };
    provider.batch.setOracle(firstAnswerBroken);
    const run = await newRun();
    const before = provider.batch.batches.size;
    const billedBefore = provider.batch.billed();

    // Act
    const outcome = await run.run().finally(() => provider.batch.setOracle(catalogOracle));

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [, repairs] = batchesSince(before);
    expect(repairs?.request_counts?.total).toBeGreaterThan(0);
    const billed = provider.batch.billed();
    const report = await run.report();
    expect(batchTokensOf(report)).toEqual({
      input: billed.input_tokens - billedBefore.input_tokens,
      output: billed.output_tokens - billedBefore.output_tokens,
    });
    expect(report.judge_cost?.total).toBeCloseTo((report.judge_cost?.online_cost ?? Number.NaN) / 2, 12);
  }, 60_000);
});

describe('an Azure OpenAI Global Batch deployment that misbehaves', () => {
  it('keeps every readable answer through the dated API, waits out its errors, and keeps no key it echoed', async () => {
    // Prepare: Azure's paths and error shapes, a job with broken lines, failing polls, a 404 on its file, the key echoed
    const azureKey = 'azure-batch-fault-key-0123456789abcdef';
    const azure = await startOpenAiBatchServer({ oracle: catalogOracle, azureKey });
    const run = await newRun();
    azure.setFaults({
      notJsonLines: 1,
      duplicateLines: 1,
      errorBodyUnder200: 1,
      echoKey: true,
      httpFaults: [
        { route: 'GET batches/{id}', status: 500, times: 2, headers: { 'retry-after-ms': '20' } },
        { route: 'GET files/{id}/content', status: 404, times: 1 },
      ],
    });
    const cleared = setInterval(() => {
      if (azure.batches.size > 1) azure.setFaults({});
    }, 5);
    const config = await run.folder.write(
      'azure.json',
      JSON.stringify({
        judge: {
          provider: 'azure',
          azure: { endpoint: azure.origin, deployment: 'judge-batch', api_version: '2024-10-21' },
          batch: { poll_seconds: 0.05 },
        },
      }),
    );

    // Act
    const outcome = await run
      .assay(['run', FAULT_DATASET, '--judges', FAULT_JUDGES, '--config', config], {
        env: { AZURE_OPENAI_API_KEY: azureKey, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
      })
      .finally(async () => {
        clearInterval(cleared);
        await azure.close();
      });

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(azure.batches.size).toBe(2);
    expect(azure.log.every((call) => call.path.startsWith('/openai/') && !call.path.startsWith('/openai/v1/'))).toBe(true);
    expect(JSON.stringify((await run.report()).engines)).toBe(JSON.stringify(clean.report.engines));
    const secret = azureKey.slice(10, 26);
    for (const file of await run.files()) expect(file.text, file.path).not.toContain(secret);
    expect(`${outcome.stdout}${outcome.stderr}`).not.toContain(secret);
  }, 60_000);
});
