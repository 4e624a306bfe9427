import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer, type ViewServer } from '../../cli/view/view-server.js';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import type { Report } from '../../shared/schema/report.js';
import { httpGet } from '../support/http-get.js';
import { NDCG, nights, reportNights, WORST_REQUEST } from '../support/reported-suite.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * The view's HTTP server and JSON API over a local store folder holding
 * three reported nights of a suite (the third with dense degraded), written
 * by the reducer as `assay run` writes them.
 */
const SUITE = 'nightly';
let folder: TempFolder;
let store: string;
let reports: Report[];
let server: ViewServer;
const logged: string[] = [];

beforeAll(async () => {
  folder = await createTempFolder();
  store = join(folder.path, 'store');
  reports = await reportNights(new LocalFolderStore(store), SUITE, nights(3, { 2: 'dense' }));
  server = await startViewServer({
    store: new LocalFolderStore(store),
    storeName: 'the test store',
    host: '127.0.0.1',
    port: 0,
    log: (line) => logged.push(line),
  });
});

afterAll(async () => {
  await server?.close();
  await folder?.remove();
});

const runFolder = (report: Report | undefined) => join(store, 'reports', SUITE, report?.run_id ?? '');

describe('assay view’s API over a store folder', () => {
  it('serves the suites, history.json and report.json as the store holds them', async () => {
    // Act
    const suites = await httpGet(server.url, '/api/suites');
    const history = await httpGet(server.url, `/api/suites/${SUITE}/history`);
    const report = await httpGet(server.url, `/api/runs/${reports[2]?.run_id}/report`);

    // Assess
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(suites.status).toBe(200);
    expect(JSON.parse(suites.body)).toMatchObject({ suites: [{ suite: SUITE, runs: 3, newest: { run_id: reports[2]?.run_id } }] });
    expect(history.body).toBe(await readFile(join(store, 'reports', SUITE, 'history.json'), 'utf8'));
    expect(history.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(report.body).toBe(await readFile(join(runFolder(reports[2]), 'report.json'), 'utf8'));
  });

  it('compares two runs with exactly the output of assay compare --json on their report folders', async () => {
    // Prepare
    const [, second, third] = reports;
    const cli = await runCli(['compare', runFolder(second), runFolder(third), '--json']);

    // Act
    const api = await httpGet(server.url, `/api/compare?a=${second?.run_id}&b=${third?.run_id}`);

    // Assess
    expect(cli.exitCode).toBe(0);
    expect(api.status).toBe(200);
    expect(api.body).toBe(cli.stdout);
    expect(JSON.parse(api.body).engines.dense[NDCG].significant).toBe(true);
  });

  it('lists the per-query changes with the largest loss first', async () => {
    const [, second, third] = reports;

    const answer = await httpGet(
      server.url,
      `/api/compare/queries?a=${second?.run_id}&b=${third?.run_id}&engine=dense&metric=${encodeURIComponent(NDCG)}&limit=3`,
    );

    const body = JSON.parse(answer.body) as { total: number; next_offset: number | null; changes: { request_id: string; delta: number }[] };
    expect(body.total).toBe(12);
    expect(body.next_offset).toBe(3);
    expect(body.changes.map((change) => change.request_id)[0]).toBe(WORST_REQUEST);
    expect(body.changes.map((change) => change.delta)).toEqual(
      [...body.changes.map((change) => change.delta)].sort((left, right) => left - right),
    );
  });

  it('pages through cases.jsonl: the pages put together are the file', async () => {
    // Prepare
    const runId = reports[0]?.run_id;
    const file = (await readFile(join(runFolder(reports[0]), 'cases.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
    const lines: unknown[] = [];
    let offset: number | null = 0;

    // Act
    while (offset !== null) {
      const page = JSON.parse((await httpGet(server.url, `/api/runs/${runId}/cases?offset=${offset}&limit=7`)).body) as {
        lines: unknown[];
        next_offset: number | null;
      };
      lines.push(...page.lines);
      offset = page.next_offset;
    }

    // Assess
    expect(file).toHaveLength(24);
    expect(lines).toEqual(file.map((line) => JSON.parse(line)));
  });

  it('finds a run whose runs/ records have expired, by the suites’ reports', async () => {
    // Prepare: the deployed bucket expires runs/ after a while; reports/ stay
    await rm(join(store, 'runs', reports[0]?.run_id ?? ''), { recursive: true, force: true });

    // Act
    const page = await httpGet(server.url, `/runs/${reports[0]?.run_id}`);

    // Assess
    expect(page.status).toBe(200);
    expect(page.body).toContain(`History of ${SUITE}`);
    expect(page.body).toContain(reports[0]?.run_id);
  });

  it.each([
    ['/suites/..%2F..%2F..%2Fetc%2Fpasswd', 400],
    ['/api/runs/..%2F..%2Fruns/report', 400],
    ['/runs/../../../etc/passwd', 400],
    ['/api/suites/%2e%2e/%2e%2e/history', 400],
    ['//etc/passwd', 404],
    ['/api/runs/r-ffffffffffffffff/report', 404],
    ['/api/suites/unknown/history', 404],
  ])('answers %s with %i, reading nothing outside the store', async (path, status) => {
    const answer = await httpGet(server.url, path);

    expect(answer.status).toBe(status);
    expect(answer.body).not.toContain('root:');
  });

  it('refuses a request that names another host, as a page elsewhere would through DNS rebinding', async () => {
    const answer = await httpGet(server.url, '/api/suites', { headers: { Host: 'attacker.example:80' } });

    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain(SUITE);
  });

  it('answers an unexpected error with a 500 in the form asked for, its message on the log only', async () => {
    // Prepare: a store whose every listing fails
    const failing = new MemoryStore();
    failing.list = () => {
      throw new Error('the disk is on fire at /secret/path');
    };
    const lines: string[] = [];
    const broken = await startViewServer({
      store: failing,
      storeName: 'a failing store',
      host: '127.0.0.1',
      port: 0,
      log: (line) => lines.push(line),
    });

    try {
      // Act
      const api = await httpGet(broken.url, '/api/suites');
      const page = await httpGet(broken.url, '/');

      // Assess
      expect(api.status).toBe(500);
      expect(JSON.parse(api.body)).toEqual({ error: 'assay view could not answer this request; the error is on its standard error' });
      expect(page.status).toBe(500);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      for (const answer of [api, page]) {
        expect(answer.body).not.toContain('/secret/path');
        expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      }
      expect(lines).toEqual([
        'assay view: GET /api/suites: the disk is on fire at /secret/path',
        'assay view: GET /: the disk is on fire at /secret/path',
      ]);
    } finally {
      await broken.close();
    }
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    const head = await httpGet(server.url, '/api/suites', { method: 'HEAD' });
    const post = await httpGet(server.url, '/api/suites', { method: 'POST' });

    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(logged).toEqual([]);
  });
});
