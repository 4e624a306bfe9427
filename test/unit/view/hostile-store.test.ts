import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import type { Report } from '../../../shared/schema/report.js';
import { DATA_POLICY, VIEW_PAGE_POLICY } from '../../../shared/view/content-policy.js';
import { ViewApp, type ViewResponse } from '../../../shared/view/view-app.js';
import { ViewData } from '../../../shared/view/view-data.js';
import { nights, reportNights } from '../../support/reported-suite.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

/**
 * The view over a store someone else wrote: a corrupt history.json, links
 * out of the store, a named pipe, a folder where a file should be, and
 * cases.jsonl changed and repaired while the view runs. Each suite of the
 * store is tampered with in one way, so the others show what is untouched.
 */
const SECRET = 'root:x:0:0:the-secret-outside-the-store';
let folder: TempFolder;
let root: string;
let app: ViewApp;
const runs: Record<string, Report[]> = {};

async function store(...parts: string[]): Promise<string> {
  const path = join(root, ...parts);
  await mkdir(join(path, '..'), { recursive: true });
  return path;
}

beforeAll(async () => {
  folder = await createTempFolder();
  root = join(folder.path, 'store');
  const local = new LocalFolderStore(root);
  for (const [index, suite] of ['corrupt', 'linked', 'piped', 'foldered', 'changing'].entries()) {
    // Run ids of their own per suite: r-…<suite index><night>.
    runs[suite] = await reportNights(
      local,
      suite,
      nights(2).map((night, nightIndex) => ({ ...night, runId: `r-${String(index + 1).padStart(14, '0')}${nightIndex + 1}0` })),
    );
  }
  await writeFile(join(folder.path, 'passwd'), SECRET);
  await writeFile(await store('reports', 'corrupt', 'history.json'), '{"suite": "corrupt", "runs": [');
  await rm(await store('reports', 'linked', 'history.json'));
  await symlink(join(folder.path, 'passwd'), await store('reports', 'linked', 'history.json'));
  const linkedRun = runs.linked?.[1]?.run_id ?? '';
  await rm(await store('reports', 'linked', linkedRun, 'report.html'));
  await symlink(join(folder.path, 'passwd'), await store('reports', 'linked', linkedRun, 'report.html'));
  const pipedRun = runs.piped?.[1]?.run_id ?? '';
  await rm(await store('reports', 'piped', pipedRun, 'cases.jsonl'));
  await promisify(execFile)('mkfifo', [await store('reports', 'piped', pipedRun, 'cases.jsonl')]);
  const folderedRun = runs.foldered?.[1]?.run_id ?? '';
  await rm(await store('reports', 'foldered', folderedRun, 'report.html'));
  await mkdir(await store('reports', 'foldered', folderedRun, 'report.html'));
  const scratch = join(folder.path, 'scratch');
  await mkdir(scratch);
  app = new ViewApp(new ViewData(local, scratch), 'the test store');
});

afterAll(async () => {
  await folder?.remove();
});

const get = (target: string): Promise<ViewResponse> => app.respond('GET', target);
const text = (response: ViewResponse): string =>
  typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
const runOf = (suite: string, index = 1): string => runs[suite]?.[index]?.run_id ?? '';

describe('the view over a store someone else wrote', () => {
  it('answers a corrupt history.json with a 500 naming it, on the API as on the page', async () => {
    const api = await get('/api/suites/corrupt/history');
    const page = await get('/suites/corrupt');

    expect(api.status).toBe(500);
    expect(api.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(text(api)).error).toMatch(
      /^reports\/corrupt\/history\.json: not valid JSON .*; assay history rebuild --suite corrupt makes it again$/,
    );
    expect(page.status).toBe(500);
    expect(text(page)).toContain('reports/corrupt/history.json: not valid JSON');
  });

  it('refuses a history.json and a report.html that link out of the store, naming them and reading nothing there', async () => {
    const api = await get('/api/suites/linked/history');
    const page = await get(`/runs/${runOf('linked')}`);

    expect(api.status).toBe(500);
    expect(JSON.parse(text(api)).error).toBe(
      'reports/linked/history.json is a symbolic link; assay view reads only regular files inside the store and follows no link; assay history rebuild --suite linked makes it again',
    );
    expect(page.status).toBe(500);
    expect(text(page)).toContain(`reports/linked/${runOf('linked')}/report.html is a symbolic link`);
    for (const answer of [api, page]) expect(text(answer)).not.toContain('the-secret');
  });

  it('refuses a named pipe as cases.jsonl at once, and goes on serving', async () => {
    const started = Date.now();
    const [cases, compare, other] = await Promise.all([
      get(`/api/runs/${runOf('piped')}/cases`),
      get(`/api/compare?a=${runOf('piped', 0)}&b=${runOf('piped')}`),
      get(`/api/runs/${runOf('piped', 0)}/cases?limit=1`),
    ]);

    expect(Date.now() - started).toBeLessThan(5_000);
    expect(cases.status).toBe(500);
    expect(JSON.parse(text(cases)).error).toBe(`reports/piped/${runOf('piped')}/cases.jsonl is a named pipe (FIFO), not a regular file`);
    expect(compare.status).toBe(500);
    expect(other.status).toBe(200);
  });

  it('names a folder where report.html should be', async () => {
    const page = await get(`/runs/${runOf('foldered')}`);

    expect(page.status).toBe(500);
    expect(page.contentType).toBe('text/html; charset=utf-8');
    expect(text(page)).toContain(`reports/foldered/${runOf('foldered')}/report.html is a folder, not a regular file`);
  });

  it('reads a changed cases.jsonl again, and a repaired one, without a restart', async () => {
    // Prepare: a page read (so the view keeps a copy), then the file changed with the report left as it is
    const runId = runOf('changing');
    const path = join(root, 'reports', 'changing', runId, 'cases.jsonl');
    const original = await readFile(path, 'utf8');
    const before = JSON.parse(text(await get(`/api/runs/${runId}/cases?limit=1`))) as { lines: { request_id: string }[] };
    const comparedBefore = JSON.parse(text(await get(`/api/compare?a=${runOf('changing', 0)}&b=${runId}`))) as {
      engines: Record<string, Record<string, { n: number }>>;
    };
    const [first = '', ...rest] = original.split('\n');
    const renamed = JSON.stringify({ ...JSON.parse(first), request_id: 'q01-changed' });

    // Act
    await writeFile(path, [renamed, ...rest].join('\n'));
    const changed = JSON.parse(text(await get(`/api/runs/${runId}/cases?limit=1`))) as { lines: { request_id: string }[] };
    const comparedChanged = JSON.parse(text(await get(`/api/compare?a=${runOf('changing', 0)}&b=${runId}`))) as {
      engines: Record<string, Record<string, { n: number }>>;
    };
    await writeFile(path, `${original.slice(0, 40)}\n`);
    const broken = await get(`/api/runs/${runId}/cases?limit=1`);
    await writeFile(path, original);
    const repaired = await get(`/api/runs/${runId}/cases?limit=1`);

    // Assess
    expect(before.lines[0]?.request_id).toBe('q01');
    expect(changed.lines[0]?.request_id).toBe('q01-changed');
    const pairs = (compared: typeof comparedBefore) => compared.engines.bm25?.['retrieval/ground_truth/ndcg@10']?.n;
    expect([pairs(comparedBefore), pairs(comparedChanged)]).toEqual([12, 11]);
    expect(broken.status).toBe(500);
    expect(JSON.parse(text(broken)).error).toContain(`cases.jsonl of run ${runId}, line 1: not valid JSON`);
    expect(repaired.status).toBe(200);
    expect(text(repaired)).toBe(text(await get(`/api/runs/${runId}/cases?limit=1`)));
    expect(JSON.parse(text(repaired)).lines[0].request_id).toBe('q01');
  });

  it('gives every answer its Content-Security-Policy: the page’s own, the stored page’s, or none at all for data', async () => {
    const report = await get(`/runs/${runOf('changing')}`);
    const api = await get('/api/suites');
    const suites = await get('/');
    const missing = await get('/api/runs/r-ffffffffffffffff/report');

    expect(report.policy).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox allow-scripts$/,
    );
    expect(api.policy).toBe(DATA_POLICY);
    expect(missing.policy).toBe(DATA_POLICY);
    expect(suites.policy).toBe(VIEW_PAGE_POLICY);
    expect(text(suites)).toContain(`content="${VIEW_PAGE_POLICY.replace("; frame-ancestors 'none'", '')}"`);
  });
});
