import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import type { Report } from '../../shared/schema/report.js';
import { runBuiltCli } from '../support/built-cli.js';
import { httpGet } from '../support/http-get.js';
import { nights, reportNights } from '../support/reported-suite.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { startViewProcess, type ViewProcess } from '../support/view-process.js';
import { reportMovedEngineRuns } from '../support/view-stores.js';

/**
 * `assay view` through the built CLI over a store folder someone else wrote:
 * history.json a link to /etc/passwd, a report.html linked out of the store,
 * cases.jsonl a named pipe, a folder where report.html should be, a corrupt
 * history.json, and a cases.jsonl changed while the view runs; and `assay
 * compare` printing names that hold a right-to-left override.
 */
const RLO = '\u202e';
let folder: TempFolder;
let store: string;
let view: ViewProcess;
const runs: Record<string, Report[]> = {};
let bidi: Report[];

const path = async (...parts: string[]): Promise<string> => {
  const file = join(store, ...parts);
  await mkdir(join(file, '..'), { recursive: true });
  return file;
};
const runOf = (suite: string, index = 1): string => runs[suite]?.[index]?.run_id ?? '';

beforeAll(async () => {
  folder = await createTempFolder();
  store = join(folder.path, 'store');
  const local = new LocalFolderStore(store);
  for (const [index, suite] of ['linked', 'piped', 'corrupt', 'changing'].entries()) {
    runs[suite] = await reportNights(
      local,
      suite,
      nights(2).map((night, nightIndex) => ({ ...night, runId: `r-${String(index + 1).padStart(14, '0')}${nightIndex + 1}0` })),
    );
  }
  await writeFile(join(folder.path, 'outside.html'), '<script>document.title = "from outside"</script>the-secret-outside-the-store');
  await rm(await path('reports', 'linked', 'history.json'));
  await symlink('/etc/passwd', await path('reports', 'linked', 'history.json'));
  await rm(await path('reports', 'linked', runOf('linked'), 'report.html'));
  await symlink(join(folder.path, 'outside.html'), await path('reports', 'linked', runOf('linked'), 'report.html'));
  await rm(await path('reports', 'linked', runOf('linked', 0), 'report.html'));
  await mkdir(await path('reports', 'linked', runOf('linked', 0), 'report.html'));
  await rm(await path('reports', 'piped', runOf('piped'), 'cases.jsonl'));
  await promisify(execFile)('mkfifo', [await path('reports', 'piped', runOf('piped'), 'cases.jsonl')]);
  await writeFile(await path('reports', 'corrupt', 'history.json'), '{"suite": "corrupt", "runs": 7}');
  bidi = await reportMovedEngineRuns(
    local,
    'bidi',
    { still: 'alpha', moved: `beta${RLO}` },
    {
      requests: Array.from({ length: 12 }, (_, index) => `q${String(index + 1).padStart(2, '0')}${RLO}-id`),
      runIds: ['r-00000000000000c1', 'r-00000000000000c2'],
    },
  );
  view = await startViewProcess(['--store', store, '--port', '0']);
});

afterAll(async () => {
  await view?.stop();
  await folder?.remove();
});

describe('assay view over a store someone else wrote', () => {
  it('refuses a history.json linked to /etc/passwd, naming it, and shows nothing of the file', async () => {
    const api = await httpGet(view.url, '/api/suites/linked/history');
    const page = await httpGet(view.url, '/suites/linked');

    expect(api.status).toBe(500);
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(api.body).error).toContain(
      'reports/linked/history.json is a symbolic link; assay view reads only regular files inside the store and follows no link',
    );
    expect(page.status).toBe(500);
    for (const answer of [api, page]) expect(answer.body).not.toContain('root:');
  });

  it('refuses a report.html linked out of the store and names a folder where one should be', async () => {
    const linked = await httpGet(view.url, `/runs/${runOf('linked')}`);
    const foldered = await httpGet(view.url, `/runs/${runOf('linked', 0)}`);

    expect(linked.status).toBe(500);
    expect(linked.body).toContain(`reports/linked/${runOf('linked')}/report.html is a symbolic link`);
    expect(linked.body).not.toContain('the-secret-outside-the-store');
    expect(foldered.status).toBe(500);
    expect(foldered.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(foldered.body).toContain(`reports/linked/${runOf('linked', 0)}/report.html is a folder, not a regular file`);
  });

  it('refuses a named pipe at once and keeps serving every other request', async () => {
    const started = Date.now();

    const [piped, page, other] = await Promise.all([
      httpGet(view.url, `/api/runs/${runOf('piped')}/cases`),
      httpGet(view.url, `/runs/${runOf('piped')}/cases`),
      httpGet(view.url, `/api/runs/${runOf('piped', 0)}/cases?limit=2`),
    ]);

    expect(Date.now() - started).toBeLessThan(5_000);
    expect(piped.status).toBe(500);
    expect(JSON.parse(piped.body).error).toBe(`reports/piped/${runOf('piped')}/cases.jsonl is a named pipe (FIFO), not a regular file`);
    expect(page.status).toBe(500);
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body).lines).toHaveLength(2);
  });

  it('answers a corrupt history.json with a 500 naming it on the API, as the page does', async () => {
    const api = await httpGet(view.url, '/api/suites/corrupt/history');
    const page = await httpGet(view.url, '/suites/corrupt');

    expect(api.status).toBe(500);
    expect(JSON.parse(api.body).error).toBe(
      'reports/corrupt/history.json: field "runs": expected an array, got a number (7); assay history rebuild --suite corrupt makes it again',
    );
    expect(page.status).toBe(500);
    expect(page.body).toContain('reports/corrupt/history.json: field &quot;runs&quot;');
  });

  it('shows the new lines of a changed cases.jsonl, its report.json left as it was', async () => {
    // Prepare: a page read, so the view holds a copy of the file
    const runId = runOf('changing');
    const file = join(store, 'reports', 'changing', runId, 'cases.jsonl');
    const before = JSON.parse((await httpGet(view.url, `/api/runs/${runId}/cases?limit=2`)).body) as { lines: { request_id: string }[] };
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
    const changed = lines.map((line, index) => (index < 2 ? JSON.stringify({ ...JSON.parse(line), request_id: `new-${index}` }) : line));

    // Act
    await writeFile(file, `${changed.join('\n')}\n`);
    const after = JSON.parse((await httpGet(view.url, `/api/runs/${runId}/cases?limit=2`)).body) as { lines: { request_id: string }[] };
    const page = await httpGet(view.url, `/runs/${runId}/cases?limit=2`);

    // Assess
    expect(before.lines.map((line) => line.request_id)).toEqual(['q01', 'q01']);
    expect(after.lines.map((line) => line.request_id)).toEqual(['new-0', 'new-1']);
    expect(page.body).toContain('<code>new-1</code>');
  });
});

describe('names with a right-to-left override', () => {
  it('are shown escaped in the terminal table of assay compare, the numbers of each row in their order', async () => {
    const [a, b] = bidi;
    const folderOf = (report: Report | undefined) => join(store, 'reports', 'bidi', report?.run_id ?? '');

    const compared = await runBuiltCli(['compare', folderOf(a), folderOf(b)]);

    expect(compared.exitCode).toBe(0);
    expect(compared.stdout).not.toContain(RLO);
    expect(compared.stdout).toContain('engine beta\\u202e\n');
    expect(compared.stdout).toMatch(/retrieval\/ground_truth\/reciprocal_rank\s+0\.5000\s+0\.8194\s+\+0\.3194/);
  });

  it('are shown with the override written out on the pages and in report.html', async () => {
    const [a, b] = bidi;

    const compare = await httpGet(view.url, `/compare?a=${a?.run_id}&b=${b?.run_id}`);
    const report = await httpGet(view.url, `/runs/${b?.run_id}`);

    for (const page of [compare, report]) {
      expect(page.status).toBe(200);
      // Only the value an option sends back holds the name as it is: it is never shown.
      expect(page.body.replace(/ value="[^"]*"/g, '')).not.toContain(RLO);
    }
    expect(compare.body).toContain(`<option value="beta${RLO}" selected>\u2068beta\\u202e\u2069</option>`);
    expect(compare.body).toContain('<summary><code><bdi>q12\\u202e-id</bdi></code>: A 0.5000, B 0.3333');
    expect(report.body).toContain('<code><bdi>q01\\u202e-id</bdi></code>');
  });
});
