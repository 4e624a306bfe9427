import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchTokensOf, FAULT_DATASET, FAULT_JUDGES, FAULT_KEY, runIdOf, useFaultyProvider } from '../support/batch-fault-run.js';
import { estimatePromptTokens, type Oracle } from '../support/chat-completion-answer.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiBatchServer } from '../support/openai-batch-server.js';

/**
 * A batch-judged run through the built bin when the provider writes its
 * files badly, fails a job half-way, echoes the key and sends text that
 * would drive a terminal: nothing paid for is lost, every metric is the
 * clean run's, no line is sent twice, the tokens reported are the tokens
 * billed, and the key is in no file and no output.
 */
const suite = useFaultyProvider();

describe('a batch job whose files the provider wrote badly', () => {
  it('keeps every readable answer and sends again only the requests of unreadable lines, each once', async () => {
    // Prepare: the first job's output holds a line not JSON, a line cut off, a line of no request, a request answered twice and an error under 200
    const run = await suite.newRun();
    const before = suite.provider.batch.batches.size;
    const sentBefore = new Map(suite.provider.batch.sent);
    suite.provider.batch.setFaults({ notJsonLines: 1, cutLastLine: true, unknownIdLines: 1, duplicateLines: 1, errorBodyUnder200: 1 });
    const cleared = setInterval(() => {
      if (suite.provider.batch.batches.size > before + 1) suite.provider.batch.setFaults({});
    }, 5);

    // Act
    const outcome = await run.run().finally(() => clearInterval(cleared));
    const status = await run.assay(['status', runIdOf(outcome)]);

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [first, second] = suite.batchesSince(before);
    const broken = suite.provider.batch.brokenLines.filter((line) => line.batchId === first?.id);
    // Unknown ids were never sent: of the broken lines, those of requests of the job are sent again
    const resent = new Set(broken.filter((line) => suite.provider.batch.sent.has(line.custom_id)).map((line) => line.custom_id));
    expect(resent.size).toBeGreaterThanOrEqual(3);
    expect(second?.request_counts?.total).toBe(resent.size);
    // Each request sent in one line: the unique requests, then those sent again as requests of their own
    expect(suite.sentSince(sentBefore)).toEqual(new Array(suite.clean.requests + resent.size).fill(1));
    const report = await run.report();
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(suite.clean.report.engines));
    expect(report.cases).toMatchObject({ total: 12, evaluated: 12, failed: 0, missing: 0 });
    expect(outcome.stderr).toMatch(/lines unread \(.*1 not JSON.*\), their requests sent again/);
    expect(status.stdout).toMatch(/batch job batch_test\d+ \(round 0, \d+ requests\): completed, .*answers collected, \d+ lines unread \(/);
  }, 60_000);

  it('keeps the answered lines of a job that failed half-way, redacts the key it echoed, and shows its text escaped', async () => {
    // Prepare: the job fails after half its lines, echoing the key in its errors, with control characters in its words
    const run = await suite.newRun();
    const before = suite.provider.batch.batches.size;
    const sentBefore = new Map(suite.provider.batch.sent);
    const billedBefore = suite.provider.batch.billed();
    const half = Math.ceil(suite.clean.requests / 2);
    suite.provider.batch.setFaults({
      failAfterLines: half,
      echoKey: true,
      errorMessageSuffix: '\u001b]0;pwned\u0007',
      statusSuffix: '\u202e',
    });

    // Act
    const outcome = await run.run();
    const status = await run.assay(['status', runIdOf(outcome)]);

    // Assess: the failed job's lines kept, only the rest sent again
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [first, second] = suite.batchesSince(before);
    expect(first).toMatchObject({ status: 'failed', request_counts: { completed: half } });
    expect(second?.request_counts?.total).toBe(suite.clean.requests - half);
    expect(suite.sentSince(sentBefore)).toEqual(new Array(suite.clean.requests + suite.clean.requests - half).fill(1));
    const report = await run.report();
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(suite.clean.report.engines));
    // Every token the provider billed, counted once
    expect(batchTokensOf(report)).toEqual(suite.billedSince(billedBefore));
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
    suite.provider.batch.setOracle(firstAnswerBroken);
    const run = await suite.newRun();
    const before = suite.provider.batch.batches.size;
    const billedBefore = suite.provider.batch.billed();

    // Act
    const outcome = await run.run().finally(() => suite.provider.batch.setOracle(catalogOracle));

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [, repairs] = suite.batchesSince(before);
    expect(repairs?.request_counts?.total).toBeGreaterThan(0);
    const report = await run.report();
    expect(batchTokensOf(report)).toEqual(suite.billedSince(billedBefore));
    expect(report.judge_cost?.total).toBeCloseTo((report.judge_cost?.online_cost ?? Number.NaN) / 2, 12);
  }, 60_000);
});

describe('what a batch-judged run judges online', () => {
  it('is counted at the online price, beside every line the jobs answered at the batch price, under failed_lines: online', async () => {
    // Prepare: the job expires with 40% of its lines done; the rest are judged online at once
    const run = await suite.newRun();
    const billedBefore = suite.provider.batch.billed();
    const onlineBefore = suite.provider.online.log.length;
    suite.provider.batch.setFaults({ expireAfterLines: Math.floor(suite.clean.requests * 0.4) });

    // Act
    const outcome = await run.run({ failed_lines: 'online' });

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const report = await run.report();
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(suite.clean.report.engines));
    expect(batchTokensOf(report)).toEqual(suite.billedSince(billedBefore));
    // The online server's answers, each counted by the tokens its usage said
    const answered = suite.provider.online.log.slice(onlineBefore).filter((entry) => entry.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    const onlineTokens = answered.reduce(
      (sum, entry) => {
        const answer = catalogOracle(entry.request, 0);
        const text = 'json' in answer ? JSON.stringify(answer.json) : '';
        return { input: sum.input + estimatePromptTokens(entry.request), output: sum.output + Math.ceil(text.length / 4) };
      },
      { input: 0, output: 0 },
    );
    const model = report.judge_cost?.models['judge-model'];
    expect({
      input: (model?.input_tokens ?? 0) - (model?.batch_input_tokens ?? 0),
      output: (model?.output_tokens ?? 0) - (model?.batch_output_tokens ?? 0),
    }).toEqual(onlineTokens);
  }, 60_000);
});

describe('lines refused for the key, the key echoed in them', () => {
  it('fails those judgments, naming them, and keeps the key in no file and no output', async () => {
    // Prepare: two requests (their ids are the clean run's: the same bodies) answered 401, the key in the message
    const run = await suite.newRun();
    const refused = [...suite.provider.batch.sent.keys()].slice(0, 2);
    suite.provider.batch.setFaults({ unauthorizedLines: refused, echoKey: true });

    // Act
    const outcome = await run.run();
    const status = await run.assay(['status', runIdOf(outcome)]);

    // Assess
    expect(outcome.exitCode).toBe(1);
    const report = await run.report();
    expect(report.cases.judge_failed).toBeGreaterThan(0);
    expect(report.failed_cases.every((failed) => failed.judge !== undefined)).toBe(true);
    expect(outcome.stderr).toMatch(/lack a judgment/);
    const secret = FAULT_KEY.slice(9, 25);
    for (const file of await run.files()) expect(file.text, file.path).not.toContain(secret);
    for (const text of [outcome.stdout, outcome.stderr, status.stdout, status.stderr]) expect(text).not.toContain(secret);
  }, 60_000);
});

describe('an Azure OpenAI Global Batch deployment that misbehaves', () => {
  it('keeps every readable answer through the dated API, waits out its errors, and keeps no key it echoed', async () => {
    // Prepare: Azure's paths and error shapes, a job with broken lines, failing polls, a 404 on its file, the key echoed
    const azureKey = 'azure-batch-fault-key-0123456789abcdef';
    const azure = await startOpenAiBatchServer({ oracle: catalogOracle, azureKey });
    const run = await suite.newRun();
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
      .finally(() => clearInterval(cleared));
    await azure.close();

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(azure.batches.size).toBe(2);
    expect(azure.log.every((call) => call.path.startsWith('/openai/') && !call.path.startsWith('/openai/v1/'))).toBe(true);
    expect(JSON.stringify((await run.report()).engines)).toBe(JSON.stringify(suite.clean.report.engines));
    const secret = azureKey.slice(10, 26);
    for (const file of await run.files()) expect(file.text, file.path).not.toContain(secret);
    expect(`${outcome.stdout}${outcome.stderr}`).not.toContain(secret);
  }, 60_000);
});
