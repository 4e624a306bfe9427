import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import type { Report } from '../../shared/schema/report.js';
import { BROWSER_LAUNCH_TIMEOUT_MS, launchBrowser } from '../support/browser.js';
import { ENGINES, NDCG, nights, reportNights, WORST_REQUEST } from '../support/reported-suite.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { startViewProcess, type ViewProcess } from '../support/view-process.js';
import { DROPPED_REQUEST, MOVED_ENGINE, RECIPROCAL_RANK, reportMovedEngineRuns, STILL_ENGINE } from '../support/view-stores.js';

/**
 * `assay view` over a store folder of three reported nights (dense degraded
 * on the third) and, in a suite of its own, two runs where only the second
 * engine by name moved (with ids and documents as long as real ones), and
 * the stored history.html, in the packaged Chromium: what a user sees, clicks
 * and reads with a keyboard or a screen reader.
 */
const SUITE = 'nightly';
let folder: TempFolder;
let store: string;
let reports: Report[];
let movedRuns: Report[];
/** A run whose stored report.html someone changed: scripts of their own, and a meta policy that would allow them. */
let tamperedRuns: Report[];
/** Two runs whose request ids hold a right-to-left override (U+202E). */
let bidiRuns: Report[];
let view: ViewProcess;
let browser: Browser;
/** One page for the whole file: the packaged Chromium runs as a single process, which closing its only page would end. */
let page: Page;
let historyFile: string;
/** Script errors and console errors (a Content-Security-Policy violation is one), by page. */
const errors: string[] = [];
/** Requests that left the page's own origin or file. */
const outside: string[] = [];

beforeAll(async () => {
  folder = await createTempFolder();
  store = join(folder.path, 'store');
  reports = await reportNights(new LocalFolderStore(store), SUITE, nights(3, { 2: 'dense' }));
  movedRuns = await reportMovedEngineRuns(new LocalFolderStore(store), 'moved');
  tamperedRuns = await reportNights(
    new LocalFolderStore(store),
    'tampered',
    nights(1).map((night) => ({ ...night, runId: 'r-00000000000000d1' })),
  );
  await tamperReportHtml(join(store, 'reports', 'tampered', 'r-00000000000000d1', 'report.html'));
  bidiRuns = await reportMovedEngineRuns(
    new LocalFolderStore(store),
    'bidi',
    { still: STILL_ENGINE, moved: MOVED_ENGINE },
    {
      requests: Array.from({ length: 12 }, (_, index) => `q${String(index + 1).padStart(2, '0')}\u202e-id`),
      runIds: ['r-00000000000000c1', 'r-00000000000000c2'],
    },
  );
  historyFile = pathToFileURL(join(store, 'reports', SUITE, 'history.html')).href;
  [view, browser] = await Promise.all([startViewProcess(['--store', store, '--port', '0']), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(view.url) || url === historyFile) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
}, BROWSER_LAUNCH_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await view?.stop();
  await folder?.remove();
});

/**
 * The run's report.html as someone with write access to the store might
 * leave it: its meta policy opened to any script, an inline script that
 * would read the view's API, an event handler and a javascript: link.
 */
async function tamperReportHtml(file: string): Promise<void> {
  const genuine = await readFile(file, 'utf8');
  const injected =
    '<script>window.ranInjected = true; document.title = "pwned"; fetch("/api/suites").then((r) => r.text()).then((t) => { window.stolen = t; });</script>' +
    '<img src="x" onerror="window.ranHandler = true" alt="">' +
    '<a id="javascript-link" href="javascript:window.ranLink = true">a link</a>';
  const tampered = genuine
    .replace(
      /<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
      `<meta http-equiv="Content-Security-Policy" content="default-src * 'unsafe-inline' 'unsafe-eval'">`,
    )
    .replace('<main>', `<main>${injected}`);
  if (tampered === genuine) throw new Error('report.html was not tampered with');
  await writeFile(file, tampered);
}

/** Goes to the address and checks that it answered 200. */
async function open(address: string): Promise<void> {
  const response = await page.goto(address);
  expect(response?.status(), address).toBe(200);
}

/** Tables without header cells, and form fields without a label, on the page. */
async function accessibilityGaps(): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const gaps = [];
    for (const table of document.querySelectorAll('table')) {
      if (table.querySelectorAll('thead th[scope="col"]').length === 0) gaps.push('a table without column headers: ' + table.className);
    }
    for (const field of document.querySelectorAll('input, select, textarea')) {
      if (field.labels.length === 0 && !field.getAttribute('aria-label')) gaps.push('a field without a label: ' + (field.name || field.id));
    }
    return gaps;
  })()`)) as string[];
}

describe('assay view in a browser', () => {
  it('loads every page without a console error, with table headers and labelled fields', async () => {
    const [, second, third] = reports;
    for (const path of [
      '',
      `suites/${SUITE}`,
      `runs/${third?.run_id}`,
      `runs/${third?.run_id}/cases?limit=5`,
      `compare?a=${second?.run_id}&b=${third?.run_id}`,
    ]) {
      await open(`${view.url}${path}`);

      expect(await accessibilityGaps(), path).toEqual([]);
    }
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('draws a trend point per run and engine, linked to the run, with the regression marked', async () => {
    // Prepare
    await open(`${view.url}suites/${SUITE}`);
    const chart = page
      .locator('figure.chart')
      .filter({ has: page.locator('figcaption').getByText(`${NDCG}/average`, { exact: true }) })
      .locator('svg.trend-chart');

    // Act
    const links = await chart.locator('a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));

    // Assess
    expect(links).toHaveLength(reports.length * ENGINES.length);
    expect(new Set(links)).toEqual(new Set(reports.map((report) => `/runs/${report.run_id}`)));
    expect(await chart.locator('.point.regression').count()).toBe(1);
    expect(await chart.locator('a', { has: page.locator('.regression') }).getAttribute('href')).toBe(`/runs/${reports[2]?.run_id}`);
    await Promise.all([page.waitForURL(`${view.url}runs/**`, { waitUntil: 'domcontentloaded' }), chart.locator('a').last().click()]);
    expect(await page.locator('h1').textContent()).toContain(SUITE);
    expect(errors).toEqual([]);
  });

  it('opens the compare page on the query that lost most, whose ranked lists open side by side from the keyboard', async () => {
    // Prepare
    const [, second, third] = reports;
    await open(`${view.url}compare?a=${second?.run_id}&b=${third?.run_id}`);
    const first = page.locator('ol.query-changes > li').first();

    // Act: Tab from the last form control to the note's link to the queries, follow it, Tab to the first query and open it, all with the keyboard
    expect(await page.locator('select[name="engine"]').inputValue()).toBe('dense');
    await page.getByRole('button', { name: 'Compare' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.getAttribute("href")')).toBe('#queries');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    // Assess
    expect(await first.locator('summary code').textContent()).toBe(WORST_REQUEST);
    expect(await first.locator('details').getAttribute('open')).toBe('');
    const lists = first.locator('table.ranked-list');
    expect(await lists.count()).toBe(2);
    // Both boxes measured in one frame, so no scroll can come between them
    const [left, right] = await first
      .locator('.side-by-side > div')
      .evaluateAll((sides) => sides.map((side) => side.getBoundingClientRect().toJSON() as { top: number; left: number; right: number }));
    expect(left?.top).toBe(right?.top);
    expect(left?.right ?? 0).toBeLessThanOrEqual(right?.left ?? 0);
    expect(await lists.nth(0).locator('caption').textContent()).toBe(`A: ${second?.run_id}`);
    expect(await lists.nth(1).locator('thead th').allTextContents()).toEqual([
      'rank',
      'document',
      'score',
      'human grade',
      'chunk_relevance',
      'rank in A',
    ]);
    expect(errors).toEqual([]);
  });

  it('opens the compare page on the engine and metric that moved, not the first engine by name, and fits its tables in 1280 px', async () => {
    // Prepare: alpha (first by name) is the same in both runs; beta's reciprocal rank rose by 0.3194, its ndcg@10 by 0.2351
    const [before, after] = movedRuns;
    await open(`${view.url}compare?a=${before?.run_id}&b=${after?.run_id}`);

    // Act: open every query, so the ranked lists with their long document ids are laid out too
    await page.locator('ol.query-changes details').evaluateAll((details) => {
      for (const element of details) element.setAttribute('open', '');
    });
    const overflow = await tablesOutsideThePage();

    // Assess
    expect(await page.locator('select[name="engine"]').inputValue()).toBe(MOVED_ENGINE);
    expect(await page.locator('select[name="metric"]').inputValue()).toBe(RECIPROCAL_RANK);
    expect(await page.locator('section.choice p').first().textContent()).toBe(
      `Per-query changes below: ${MOVED_ENGINE}, ${RECIPROCAL_RANK}, the largest significant change (+0.3194, p = 0.008).`,
    );
    expect(await page.locator('ul.other-changes a').allTextContents()).toEqual([`${MOVED_ENGINE}, retrieval/ground_truth/ndcg@10`]);
    expect(await page.locator('table.comparison tr[aria-current="true"] td').allTextContents()).toEqual(
      expect.arrayContaining([MOVED_ENGINE, RECIPROCAL_RANK, '+0.3194']),
    );
    expect(await page.locator('ol.losses > li summary code').allTextContents()).toEqual([DROPPED_REQUEST]);
    expect(await page.locator('ol.gains > li').count()).toBe(8);
    expect(overflow).toEqual({ pageScrollsSideways: false, tablesPastThePage: [], hiddenInScrollBoxes: [] });
    expect(errors).toEqual([]);
  });
});

/**
 * At the page's width: whether the page scrolls sideways; tables whose right
 * edge is past the page and not inside a scrolling box that is itself within
 * the page (content a user cannot reach); and scrolling boxes whose content
 * is wider than the box (reachable, but out of sight at first: at 1280 px the
 * compare page's tables are meant to fit, their ids and metric paths wrapping).
 */
async function tablesOutsideThePage(): Promise<{
  pageScrollsSideways: boolean;
  tablesPastThePage: string[];
  hiddenInScrollBoxes: string[];
}> {
  return (await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const scrollBox = (element) => {
      for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(parent).overflowX)) return parent;
      }
      return null;
    };
    const name = (table) => table.className + (table.caption ? ' ' + table.caption.textContent : '');
    const tablesPastThePage = [];
    const hiddenInScrollBoxes = [];
    for (const table of document.querySelectorAll('main table')) {
      const box = scrollBox(table);
      const right = (box ?? table).getBoundingClientRect().right;
      if (right > width) tablesPastThePage.push(name(table) + ': right edge at ' + right + ' of ' + width);
      if (box !== null && box.scrollWidth > box.clientWidth) hiddenInScrollBoxes.push(name(table) + ': ' + box.scrollWidth + ' wide in ' + box.clientWidth);
    }
    return { pageScrollsSideways: document.documentElement.scrollWidth > width, tablesPastThePage, hiddenInScrollBoxes };
  })()`)) as { pageScrollsSideways: boolean; tablesPastThePage: string[]; hiddenInScrollBoxes: string[] };
}

describe('assay view over a store someone else wrote', () => {
  it('runs no script of a stored report.html but the view’s own table script', async () => {
    // Prepare
    const before = errors.length;

    // Act
    await open(`${view.url}runs/${tamperedRuns[0]?.run_id}`);
    await page.locator('#javascript-link').click();
    await page.waitForTimeout(200);
    const ran = await page.evaluate(
      '({ injected: window.ranInjected, handler: window.ranHandler, link: window.ranLink, stolen: window.stolen, title: document.title })',
    );
    const tableScriptRan = await page.locator('[data-table-controls]').first().isVisible();
    const refusals = errors.splice(before);

    // Assess
    expect(ran).toEqual({ title: expect.stringContaining('tampered: run r-00000000000000d1') });
    expect(tableScriptRan).toBe(true);
    expect(await page.locator('th button.sort').count()).toBeGreaterThan(0);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) expect(refusal).toContain('Content Security Policy');
    expect(outside).toEqual([]);
  });

  it('shows the numbers beside a request id holding U+202E in their order', async () => {
    // Prepare
    const [a, b] = bidiRuns;
    await open(`${view.url}compare?a=${a?.run_id}&b=${b?.run_id}`);
    // The same line as the page would have it without isolation, to show the measure sees a reordering.
    await page.evaluate(`(() => {
      const control = document.createElement('p');
      control.id = 'control';
      const code = document.createElement('code');
      code.textContent = 'q12\u202e-id';
      const delta = document.createElement('span');
      delta.className = 'delta';
      delta.textContent = '(\u22120.1667)';
      control.append(code, ': A 0.5000, B 0.3333 ', delta);
      document.querySelector('main').append(control);
    })()`);

    // Act: where each part of the line is drawn, left to right
    const measure = (selector: string) =>
      page.evaluate(`(() => {
        const line = document.querySelector(${JSON.stringify(selector)});
        const code = line.querySelector('code');
        const text = code.nextSibling;
        const left = (needle) => {
          const at = text.data.indexOf(needle);
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + needle.length);
          return Math.round(range.getBoundingClientRect().left);
        };
        return {
          shown: code.textContent,
          order: [['id', Math.round(code.getBoundingClientRect().left)], ['A', left('A ')], ['0.5000', left('0.5000')], ['B', left('B ')], ['0.3333', left('0.3333')], ['delta', Math.round(line.querySelector('.delta').getBoundingClientRect().left)]]
            .sort((x, y) => x[1] - y[1]).map((entry) => entry[0]),
        };
      })()`) as Promise<{ shown: string; order: string[] }>;
    const shown = await measure('ol.losses > li summary');
    const unisolated = await measure('#control');

    // Assess
    expect(shown).toEqual({ shown: 'q12\\u202e-id', order: ['id', 'A', '0.5000', 'B', '0.3333', 'delta'] });
    expect(unisolated.order).not.toEqual(['id', 'A', '0.5000', 'B', '0.3333', 'delta']);
    expect(
      await page.evaluate(
        'document.querySelector("main").innerText.replace(document.getElementById("control").innerText, "").includes("\u202e")',
      ),
    ).toBe(false);
    expect(errors).toEqual([]);
  });
});

describe('the stored history.html', () => {
  it('opens offline from the file, naming every run and fetching nothing', async () => {
    await page.goto(historyFile);

    for (const report of reports) expect(await page.locator(`table.runs a[href="${report.run_id}/report.html"]`).count()).toBe(1);
    expect(await page.locator('svg.trend-chart').count()).toBeGreaterThan(0);
    expect(await page.getByLabel('Filter runs').count()).toBe(1);
    expect(await accessibilityGaps()).toEqual([]);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
