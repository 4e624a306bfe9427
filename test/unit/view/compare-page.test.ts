import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import type { Report } from '../../../shared/schema/report.js';
import { ViewApp } from '../../../shared/view/view-app.js';
import { ViewData } from '../../../shared/view/view-data.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { DROPPED_REQUEST, RECIPROCAL_RANK, reportMovedEngineRuns, STILL_ENGINE } from '../../support/view-stores.js';

/** The moved engine's name is markup: the page must show it as text, never run it. */
const HOSTILE_ENGINE = 'b<img src=x onerror=alert(1)>"\'&';
const ESCAPED_ENGINE = 'b&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;';

let folder: TempFolder;
let app: ViewApp;
let a: Report;
let b: Report;

beforeAll(async () => {
  folder = await createTempFolder();
  const store = new LocalFolderStore(join(folder.path, 'store'));
  [a, b] = await reportMovedEngineRuns(store, 'nightly', { still: STILL_ENGINE, moved: HOSTILE_ENGINE });
  // The view's local copies of cases.jsonl go to a folder that exists, as `assay view` makes one.
  const scratch = join(folder.path, 'scratch');
  await mkdir(scratch);
  app = new ViewApp(new ViewData(store, scratch), folder.path);
});

afterAll(async () => {
  await folder?.remove();
});

async function body(target: string): Promise<string> {
  const response = await app.respond('GET', target);
  expect(response.status, `${target}: ${String(response.body).slice(0, 300)}`).toBe(200);
  return String(response.body);
}

describe("the compare page's choice of engine and metric", () => {
  it('opens on the largest significant change, says so, and escapes the stored engine name everywhere', async () => {
    const page = await body(`/compare?a=${a.run_id}&b=${b.run_id}`);

    expect(page).not.toContain('<img');
    expect(page).toContain(`Per-query changes below: <a href="#queries"><strong>${ESCAPED_ENGINE}</strong>`);
    expect(page).toContain('the largest significant change (+0.3194, p = 0.008)');
    expect(page).toContain(
      `<h2 id="queries-heading">Per-query changes: ${ESCAPED_ENGINE}, <code>retrieval/<wbr>ground_truth/<wbr>reciprocal_rank</code></h2>`,
    );
    expect(page).toContain(`<option value="${ESCAPED_ENGINE}" selected>${ESCAPED_ENGINE}</option>`);
    expect(page).toContain('<h3 id="losses-heading">Lost (1)</h3>');
    expect(page).toContain('<h3 id="gains-heading">Gained (8)</h3>');
  });

  it('keeps the engine and metric the address names, and links back to the largest change', async () => {
    const page = await body(`/compare?a=${a.run_id}&b=${b.run_id}&engine=${STILL_ENGINE}&metric=${encodeURIComponent(RECIPROCAL_RANK)}`);

    expect(page).toContain('as chosen in the address (±0.0000, p = 1.000)');
    expect(page).toContain(`<a href="/compare?a=${a.run_id}&amp;b=${b.run_id}">Open on the largest change</a>`);
    expect(page).toContain('No query changed (12 unchanged).');
  });

  it.each([
    { offset: 0, limit: 3, first: DROPPED_REQUEST, lists: ['losses', 'gains'], starts: ['1', '1'], jumps: [] },
    { offset: 3, limit: 3, first: 'q03-', lists: ['gains'], starts: ['3'], jumps: ['The losses (1)'] },
    { offset: 0, limit: 1, first: DROPPED_REQUEST, lists: ['losses'], starts: ['1'], jumps: ['The gains (8)'] },
  ])(
    'pages the losses, then the gains, each numbered on its own: offset $offset, limit $limit',
    async ({ offset, limit, first, lists, starts, jumps }) => {
      const page = await body(`/compare?a=${a.run_id}&b=${b.run_id}&offset=${offset}&limit=${limit}`);

      expect([...page.matchAll(/<ol class="query-changes (\w+)" start="(\d+)"/g)].map((match) => match[1])).toEqual(lists);
      expect([...page.matchAll(/<ol class="query-changes \w+" start="(\d+)"/g)].map((match) => match[1])).toEqual(starts);
      expect(/<summary><code>([^<]+)<\/code>/.exec(page)?.[1]).toContain(first);
      for (const jump of ['The losses (1)', 'The gains (8)']) expect(page.includes(`>${jump}</a>`), jump).toBe(jumps.includes(jump));
    },
  );

  it('gives the per-query changes in the API in the order of the page, with the count of losses', async () => {
    const answer = JSON.parse(
      await body(
        `/api/compare/queries?a=${a.run_id}&b=${b.run_id}&engine=${encodeURIComponent(HOSTILE_ENGINE)}&metric=${encodeURIComponent(RECIPROCAL_RANK)}`,
      ),
    ) as {
      losses: number;
      changes: { request_id: string; delta: number }[];
    };

    expect(answer.losses).toBe(1);
    expect(answer.changes.map((change) => Math.sign(change.delta))).toEqual([-1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(answer.changes[0]?.request_id).toBe(DROPPED_REQUEST);
  });
});
