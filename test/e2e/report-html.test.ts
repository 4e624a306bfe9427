import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../shared/report/aggregate.js';
import { caseLines } from '../../shared/report/cases-jsonl.js';
import { renderHtml } from '../../shared/report-render/html.js';
import type { Report } from '../../shared/schema/report.js';
import { BROWSER_LAUNCH_TIMEOUT_MS, launchBrowser } from '../support/browser.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { failure, manifest, result, usage } from '../unit/report/factories.js';

const NDCG = 'retrieval/ground_truth/ndcg@10';
const CORRECTNESS = 'response/llm_judged/correctness/rating';
/** An engine name that would break the page if it were not escaped; the page must show it as written. */
const ODD_ENGINE = 'hybrid <b>&</b>';
const ENGINES = ['bm25', 'dense', ODD_ENGINE];
const CASE_COUNT = 8;
/** Per case, an ndcg that each engine scales by its own factor, so the engines differ. */
const NDCG_BASE = [0.2, 0.5, 0.9, 0.4, 0.7, 1, 0.3, 0.6];

/** CASE_COUNT evaluated cases over three engines, with ndcg intervals, judge usage, a failed case and a missing one. */
function sampleRun(): { report: Report; lines: ReturnType<typeof caseLines> } {
  const evaluated = Array.from({ length: CASE_COUNT }, (_, index) => `case-${index + 1}`);
  const ids = [...evaluated, 'case-failed', 'case-missing'];
  const results = evaluated.map((caseId, index) =>
    result(
      caseId,
      Object.fromEntries(
        ENGINES.map((engine, engineIndex) => [
          engine,
          { [NDCG]: (NDCG_BASE[index] ?? 0) * (0.7 + engineIndex * 0.15), [CORRECTNESS]: (index + engineIndex) % 3 === 0 ? 'no' : 'yes' },
        ]),
      ),
      { correctness: usage({ calls: 3, input_tokens: 900, output_tokens: 120 }) },
    ),
  );
  const built = reportInOnePass({
    manifest: manifest(ids, { engines: [] }),
    results,
    failures: [failure('case-failed', 'judge timed out <again>')],
    caseIds: ids,
  });
  const engines = Object.fromEntries(
    Object.entries(built.engines).map(([engine, statistics]) => {
      const average = statistics[`${NDCG}/average`] ?? 0;
      return [
        engine,
        { ...statistics, [`${NDCG}/average/ci_low`]: Math.max(0, average - 0.1), [`${NDCG}/average/ci_high`]: Math.min(1, average + 0.1) },
      ];
    }),
  );
  return { report: { ...built, engines }, lines: caseLines(results) };
}

let folder: TempFolder;
let browser: Browser;
let page: Page;
let fileUrl: string;
/** Every request or socket the page tried to open other than its own file. */
const attempts: string[] = [];
/** Script errors and console errors (a Content-Security-Policy violation is one). */
const pageErrors: string[] = [];

beforeAll(async () => {
  folder = await createTempFolder();
  const { report, lines } = sampleRun();
  fileUrl = pathToFileURL(await folder.write('report.html', renderHtml(report, lines))).href;
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === fileUrl) return route.continue();
    attempts.push(url);
    return route.abort('blockedbyclient');
  });
  page.on('request', (request) => {
    if (request.url() !== fileUrl && !attempts.includes(request.url())) attempts.push(request.url());
  });
  page.on('websocket', (socket) => attempts.push(socket.url()));
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(fileUrl);
}, BROWSER_LAUNCH_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await folder?.remove();
});

describe('report.html in a headless browser', () => {
  it('shows every engine and the charts, loading nothing but its own file', async () => {
    for (const engine of ENGINES) {
      const header = page.locator('table.metrics thead th').filter({ hasText: new RegExp(`^${escapeRegExp(engine)}$`) });
      expect(await header.isVisible(), `engine ${engine} in the key-metric table`).toBe(true);
    }
    const charts = page.locator('svg.bar-chart');
    expect(await charts.count()).toBe(2);
    expect(await charts.first().isVisible()).toBe(true);
    const box = await charts.first().boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    expect(attempts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('sorts the per-query table by a clicked header and filters it by the typed text', async () => {
    // Prepare
    const table = page.locator('#per-query-table');
    const visibleRows = table.locator('tbody tr:visible');
    const ndcgHeader = table.locator('thead th', { hasText: 'ndcg@10' });
    expect(await visibleRows.count()).toBe(CASE_COUNT * ENGINES.length);

    // Act: sort by ndcg@10, lowest first
    await ndcgHeader.getByRole('button').click();

    // Assess
    expect(await ndcgHeader.getAttribute('aria-sort')).toBe('ascending');
    const column = (await table.locator('thead th').allTextContents()).findIndex((text) => text.includes('ndcg@10'));
    const values = (await table.locator(`tbody tr td:nth-child(${column + 1})`).allTextContents()).map(Number);
    expect(values).toEqual([...values].sort((left, right) => left - right));
    expect(values[0]).toBeLessThan(values.at(-1) ?? 0);

    // Act: keep the rows of one case
    await page.getByLabel('Filter per-query rows').fill('case-3');

    // Assess: one row per engine
    expect(await visibleRows.count()).toBe(ENGINES.length);
    expect(await page.locator('[data-table-controls="per-query-table"] output').textContent()).toBe(
      `3 of ${CASE_COUNT * ENGINES.length} rows shown`,
    );
    expect(pageErrors).toEqual([]);
  });

  it('renders a screenshot that is not blank', async () => {
    await page.getByLabel('Filter per-query rows').fill('');
    await page.evaluate('window.scrollTo(0, 0)');
    const png = await page.screenshot({ path: `${folder.path}/report.png` });

    const image = decodePng(png);

    expect(image.width).toBe(1280);
    expect(image.height).toBe(800);
    const colours = new Map<number, number>();
    for (let offset = 0; offset < image.pixels.length; offset += image.channels) {
      const colour = (byteAt(image.pixels, offset) << 16) | (byteAt(image.pixels, offset + 1) << 8) | byteAt(image.pixels, offset + 2);
      colours.set(colour, (colours.get(colour) ?? 0) + 1);
    }
    const background = Math.max(...colours.values());
    const pixelCount = image.width * image.height;
    expect(colours.size, 'distinct colours in the screenshot').toBeGreaterThan(20);
    expect(pixelCount - background, 'pixels other than the background colour').toBeGreaterThan(pixelCount * 0.02);
    // After every interaction, still nothing fetched and no error
    expect(attempts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

interface DecodedPng {
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA) bytes per pixel. */
  channels: number;
  /** Rows top to bottom, unfiltered. */
  pixels: Uint8Array;
}

/** A PNG of 8-bit RGB or RGBA pixels, not interlaced (what Chromium's screenshots are); anything else throws. */
function decodePng(png: Buffer): DecodedPng {
  if (!png.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) throw new Error('Expected a PNG signature');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      const [bitDepth, colourType, , , interlace] = body.subarray(8, 13);
      if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || interlace !== 0) {
        throw new Error(
          `Expected an 8-bit RGB or RGBA non-interlaced PNG, got bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}`,
        );
      }
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      channels = colourType === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const filtered = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let row = 0; row < height; row++) {
    const filter = filtered[row * (stride + 1)] ?? -1;
    if (filter < 0 || filter > 4) throw new Error(`Expected a PNG filter type from 0 to 4 on row ${row}, got ${filter}`);
    const source = row * (stride + 1) + 1;
    const target = row * stride;
    for (let column = 0; column < stride; column++) {
      const left = column >= channels ? byteAt(pixels, target + column - channels) : 0;
      const up = row > 0 ? byteAt(pixels, target - stride + column) : 0;
      const upLeft = row > 0 && column >= channels ? byteAt(pixels, target - stride + column - channels) : 0;
      const raw = byteAt(filtered, source + column);
      const predictor =
        filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : paeth(left, up, upLeft);
      pixels[target + column] = (raw + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** The byte at index; reading past the end means a truncated PNG, which throws. */
function byteAt(bytes: Uint8Array, index: number): number {
  const byte = bytes[index];
  if (byte === undefined) throw new Error(`Expected a byte at offset ${index} of ${bytes.length}, the PNG is truncated`);
  return byte;
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
