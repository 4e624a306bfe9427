import type { SpawnedProcess } from '../support/small-spawner.js';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runIdOf, useFaultyProvider } from '../support/batch-fault-run.js';
import { closedPort } from '../support/closed-port.js';
import { until } from '../support/until.js';

/**
 * A batch-judged run through the built bin when the provider's API does not
 * answer as it should: polls met by 500s, 429s and cut connections, a file
 * the job names not there yet, a finished job that names its files late, an
 * outage longer than the job's window, a create the process was killed in,
 * a job that expires twice. A short outage is waited out; a long one leaves
 * the run resumable; an uploaded input is never left behind; and every
 * metric is the clean run's, or the run exits 1 naming what it lacks.
 */
const suite = useFaultyProvider();

const inputFiles = () => [...suite.provider.batch.files.values()].filter((file) => file.info.purpose === 'batch');

describe('a batch provider that does not answer for a while', () => {
  it('waits out 500s, 429s and a cut connection on its polls, a 404 on a named file, and files named late', async () => {
    // Prepare
    const run = await suite.newRun();
    const before = suite.provider.batch.batches.size;
    suite.provider.batch.setFaults({
      httpFaults: [
        { route: 'GET batches/{id}', status: 500, times: 3, headers: { 'retry-after-ms': '20' } },
        { route: 'GET batches/{id}', status: 429, times: 3, headers: { 'retry-after-ms': '20' } },
        { route: 'GET batches/{id}', cut: true, times: 1 },
        { route: 'GET files/{id}/content', status: 404, times: 1 },
      ],
      outputFileLagPolls: 2,
    });

    // Act
    const outcome = await run.run();

    // Assess: one job, nothing sent again, the clean run's metrics
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(suite.provider.batch.batches.size - before).toBe(1);
    expect(JSON.stringify((await run.report()).engines)).toBe(JSON.stringify(suite.clean.report.engines));
    expect(outcome.stderr).toMatch(/batch: the provider did not answer \(HTTP 500: .*\); looked at again, until /);
  }, 60_000);

  it("leaves the run resumable when the outage outlasts the job's window, and resume collects the job", async () => {
    // Prepare: a job with a window of a second, then no look at it answered
    const run = await suite.newRun();
    suite.provider.batch.setFaults({ completionWindowSeconds: 1, httpFaults: [{ route: 'GET batches/{id}', status: 503 }] });

    // Act
    const stopped = await run.run();
    suite.provider.batch.setFaults({});
    const resumed = await run.assay(['resume', runIdOf(stopped)]);

    // Assess
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stderr).toMatch(
      /assay run: the batch provider has not answered since \S+ \(the last: HTTP 503: .*\), and its jobs' window or the run's deadline has passed; nothing was lost\. The run can go on: assay resume r-[0-9a-f]{16} --store \S+ looks at its jobs again\n$/,
    );
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(JSON.stringify((await run.report()).engines)).toBe(JSON.stringify(suite.clean.report.engines));
  }, 60_000);

  it('stops at once when no connection to the provider can be made before any job of the run was created, and resume submits the requests', async () => {
    // Prepare: the run's base URL is a port where nothing listens (a typo); resume gets the provider's
    const run = await suite.newRun();
    const closed = `http://127.0.0.1:${await closedPort()}/v1`;
    const startedAt = Date.now();

    // Act
    const stopped = await run.run({}, [], { env: { OPENAI_BASE_URL: closed } });
    const stoppedAfterMs = Date.now() - startedAt;
    const resumed = await run.assay(['resume', runIdOf(stopped)]);

    // Assess: no day of looks at a provider that is not there; nothing lost
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stderr).toMatch(
      new RegExp(
        `assay run: the batch provider could not be reached \\(no answer from ${closed.replaceAll('.', '\\.')}: the connection was refused \\(ECONNREFUSED\\)\\); ` +
          "check OPENAI_BASE_URL \\(or the config's judge base_url, azure or bedrock settings\\) and that the server is running; nothing was lost\\. " +
          'The run can go on: assay resume r-[0-9a-f]{16} --store \\S+ submits its requests\\n$',
      ),
    );
    expect(stoppedAfterMs).toBeLessThan(15_000);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(JSON.stringify((await run.report()).engines)).toBe(JSON.stringify(suite.clean.report.engines));
  }, 60_000);

  it('stops at once when the provider answers no call in time before any job of the run was created (a provider that hangs)', async () => {
    // Prepare: every look for the run's job hangs; each attempt may take 300 ms (judge.timeout_ms)
    const run = await suite.newRun();
    suite.provider.batch.setFaults({ httpFaults: [{ route: 'GET batches', hang: true }] });
    const startedAt = Date.now();

    // Act
    const stopped = await run.run({}, [], {}, { timeout_ms: 300 });
    const stoppedAfterMs = Date.now() - startedAt;
    suite.provider.batch.setFaults({});

    // Assess: three attempts of 300 ms and the SDK's backoff, not a day of looks
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stderr).toMatch(
      /assay run: the batch provider could not be reached \(no answer from http:\/\/127\.0\.0\.1:\d+\/v1: the request timed out, at each of its attempts\); check OPENAI_BASE_URL .*; nothing was lost\. The run can go on: assay resume r-[0-9a-f]{16} --store \S+ submits its requests\n$/,
    );
    expect(stoppedAfterMs).toBeLessThan(20_000);
  }, 60_000);

  it('deletes the input a killed process uploaded before its job was created', async () => {
    // Prepare: the create is held, so the process dies with its input uploaded and no job
    const run = await suite.newRun();
    const inputsBefore = inputFiles().length;
    suite.provider.batch.setFaults({ holdCreate: true });
    let child: SpawnedProcess | undefined;
    const running = run.run({}, [], {
      started: (started) => {
        child = started;
      },
    });
    await until(() => child !== undefined, 30_000);
    const output = child?.stdout;
    if (output === undefined || output === null) throw new Error('the run has no stdout to read');
    const runId = await new Promise<string>((resolve) => {
      createInterface({ input: output }).once('line', (line) => resolve(/^run (r-[0-9a-f]{16})$/.exec(line)?.[1] ?? ''));
    });
    await until(() => suite.provider.batch.heldCreates === 1, 30_000);

    // Act
    child?.kill('SIGKILL');
    await running;
    suite.provider.batch.setFaults({});
    const resumed = await run.assay(['resume', runId]);

    // Assess: the orphan gone, the job's own input kept
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(inputFiles().length - inputsBefore).toBe(1);
    expect(JSON.stringify((await run.report()).engines)).toBe(JSON.stringify(suite.clean.report.engines));
  }, 60_000);
});

describe('a job that expires, and its resubmission too', () => {
  it("judges online what the jobs did not run twice, by default, and every metric is the clean run's", async () => {
    // Prepare: every job expires after 40% of the first job's lines
    const run = await suite.newRun();
    const onlineBefore = suite.provider.online.log.length;
    suite.provider.batch.setFaults({ expireAfterLines: Math.floor(suite.clean.requests * 0.4) });

    // Act
    const outcome = await run.run();

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const report = await run.report();
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(suite.clean.report.engines));
    expect(report.cases).toMatchObject({ evaluated: 12, failed: 0, missing: 0 });
    expect(suite.provider.online.log.length - onlineBefore).toBeGreaterThan(0);
  }, 60_000);

  it('exits 1 with the cases that lack a judgment under unanswered_lines: fail', async () => {
    // Prepare
    const run = await suite.newRun();
    suite.provider.batch.setFaults({ expireAfterLines: Math.floor(suite.clean.requests * 0.4) });

    // Act
    const outcome = await run.run({ unanswered_lines: 'fail' });

    // Assess
    expect(outcome.exitCode).toBe(1);
    const report = await run.report();
    const lacking = report.failed_cases.filter((failed) => failed.judge !== undefined);
    expect(lacking.length).toBeGreaterThan(0);
    expect(lacking[0]?.error).toMatch(/the batch jobs did not run the request, twice/);
    expect(report.cases.judge_failed).toBe(new Set(lacking.map((failed) => failed.case_id)).size);
    expect(outcome.stderr).toMatch(/lack a judgment/);
  }, 60_000);
});
