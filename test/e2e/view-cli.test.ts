import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyKeys } from '../../shared/history/history-keys.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { createAwsClients, type AwsClients } from '../../shared/ports/aws-clients.js';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { S3Store } from '../../shared/ports/s3-store.js';
import type { Report } from '../../shared/schema/report.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { httpGet } from '../support/http-get.js';
import { nights, reportNights } from '../support/reported-suite.js';
import { runCli } from '../support/run-cli.js';
import { startViewProcess } from '../support/view-process.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay view` and `assay history rebuild` as a user runs them, on the bucket
 * `assay run --aws-endpoint` uses at an S3 endpoint (fauxqs on loopback):
 * the built CLI in a process of its own, its URL read from its first line,
 * stopped with Ctrl-C (SIGINT).
 */
const SUITE = 'nightly';
let fauxqs: Fauxqs;
let clients: AwsClients;
let store: S3Store;
let reports: Report[];
let folder: TempFolder;

beforeAll(async () => {
  fauxqs = await startFauxqs();
  clients = createAwsClients({ endpoint: fauxqs.endpoint });
  await clients.s3.send(new CreateBucketCommand({ Bucket: 'assay' }));
  store = new S3Store(clients.s3, 'assay');
  reports = await reportNights(store, SUITE, nights(3, { 2: 'dense' }));
  folder = await createTempFolder();
});

afterAll(async () => {
  clients?.s3.destroy();
  clients?.sqs.destroy();
  await fauxqs?.close();
  await folder?.remove();
});

/** A run's report.json and cases.jsonl downloaded into a folder, as `assay report` leaves them. */
async function downloaded(report: Report | undefined): Promise<string> {
  const target = join(folder.path, report?.run_id ?? 'none');
  const local = new LocalFolderStore(target);
  for (const name of ['report.json', 'cases.jsonl']) {
    await local.put(name, (await store.get(runKeys.report(SUITE, report?.run_id ?? '', name))) ?? '');
  }
  return target;
}

describe('assay view on an S3 endpoint', () => {
  it('prints its URL first, serves the pages and API from the bucket, compares as assay compare --json does, and stops on SIGINT', async () => {
    // Prepare
    const [, second, third] = reports;
    const cli = await runCli(['compare', await downloaded(second), await downloaded(third), '--json']);
    const view = await startViewProcess(['--aws-endpoint', fauxqs.endpoint, '--port', '0']);

    try {
      // Act
      const suites = await httpGet(view.url, '/api/suites');
      const suitePage = await httpGet(view.url, `/suites/${SUITE}`);
      const runPage = await httpGet(view.url, `/runs/${third?.run_id}`);
      const compare = await httpGet(view.url, `/api/compare?a=${second?.run_id}&b=${third?.run_id}`);

      // Assess
      expect(view.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(JSON.parse(suites.body)).toMatchObject({ suites: [{ suite: SUITE, runs: 3 }] });
      expect(suitePage.status).toBe(200);
      for (const report of reports) expect(suitePage.body).toContain(`href="/runs/${report.run_id}"`);
      expect(runPage.status).toBe(200);
      expect(runPage.body).toContain('assay evaluation report');
      expect(compare.body).toBe(cli.stdout);
    } finally {
      expect(await view.stop()).toBe(0);
    }
    expect(view.stderr()).toContain('assay view: stopped (SIGINT)');
  });

  it('reads a changed cases.jsonl again, by its ETag, its report.json left as it was', async () => {
    // Prepare: a page read, so the view holds a copy of the object
    const runId = reports[0]?.run_id ?? '';
    const key = runKeys.report(SUITE, runId, 'cases.jsonl');
    const original = new TextDecoder().decode(await store.get(key));
    const view = await startViewProcess(['--aws-endpoint', fauxqs.endpoint, '--port', '0']);

    try {
      const before = JSON.parse((await httpGet(view.url, `/api/runs/${runId}/cases?limit=1`)).body) as { lines: { request_id: string }[] };
      const [first = '', ...rest] = original.split('\n');

      // Act
      await store.put(key, [JSON.stringify({ ...JSON.parse(first), request_id: 'changed-in-the-bucket' }), ...rest].join('\n'));
      const after = JSON.parse((await httpGet(view.url, `/api/runs/${runId}/cases?limit=1`)).body) as { lines: { request_id: string }[] };

      // Assess
      expect(before.lines[0]?.request_id).toBe('q01');
      expect(after.lines[0]?.request_id).toBe('changed-in-the-bucket');
    } finally {
      await store.put(key, original);
      expect(await view.stop()).toBe(0);
    }
  });

  it('stops at once, serving nothing, when the bucket is not there', async () => {
    const result = await runCli(['view', '--aws-endpoint', fauxqs.endpoint, '--bucket', 'no-such-bucket', '--port', '0']);

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no-such-bucket');
  });

  it('gets a history written before it existed from assay history rebuild', async () => {
    // Prepare: the bucket as reports of an older version left it, without any history object
    const before = new TextDecoder().decode(await store.get(historyKeys.json(SUITE)));
    const keys = [historyKeys.json(SUITE), historyKeys.html(SUITE), historyKeys.card(SUITE)];
    for await (const key of store.list(historyKeys.rowsPrefix(SUITE))) keys.push(key);
    for (const key of keys) await store.delete(key);

    // Act
    const rebuilt = await runCli(['history', 'rebuild', '--suite', SUITE, '--aws-endpoint', fauxqs.endpoint]);

    // Assess
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.exitCode).toBe(0);
    expect(rebuilt.stdout).toBe(`history of suite ${SUITE}: 3 runs (reports/${SUITE}/history.json, reports/${SUITE}/history.html)\n`);
    expect(new TextDecoder().decode(await store.get(historyKeys.json(SUITE)))).toBe(before);
  });
});

describe('assay view and assay history: usage errors', () => {
  it.each([
    { args: ['view', '--store', '.assay', '--bucket', 'b'], says: '--store names a local folder and --bucket or --aws-endpoint a bucket' },
    { args: ['view', '--store', '/nonexistent/assay-store'], says: 'No store at /nonexistent/assay-store' },
    { args: ['view', '--port', '70000'], says: '--port got "70000"; expected an integer from 0 to 65535' },
    { args: ['history', 'rebuild', '--suite', '../x'], says: '--suite got "../x"' },
  ])('$args', async ({ args, says }) => {
    const result = await runCli(args);

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(says);
  });

  it('names a suite that has no report, writing nothing', async () => {
    const result = await runCli(['history', 'rebuild', '--suite', 'nigthly', '--store', folder.path]);

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`Suite nigthly has no report in the store ${folder.path}`);
  });

  it('names a port that is in use', async () => {
    // Prepare: a port this process listens on
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;

    try {
      const result = await runCli(['view', '--store', folder.path, '--port', String(port)]);

      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`--port ${port} is in use on 127.0.0.1; choose another, or --port 0 for a free one`);
    } finally {
      taken.close();
    }
  });
});
