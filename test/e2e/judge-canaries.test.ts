import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyFileSchema } from '../../shared/history/history-file.js';
import { compareJsonSchema } from '../../shared/schema/compare-json.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { BROWSER_LAUNCH_TIMEOUT_MS, launchBrowser } from '../support/browser.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { driftingJudge } from '../support/drifting-judge.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { startViewProcess, type ViewProcess } from '../support/view-process.js';

/**
 * A nightly suite with a judge canary, run night after night through the
 * built CLI as a schedule would (`assay run` with the suite's config, the
 * first night set as the baseline), against a local judge that answers
 * deterministically from a seed, turns a few of its verdicts each night as a
 * served model does, and on one night is changed under its name: half its
 * yes verdicts turned no, and another system_fingerprint. That night is
 * flagged and its judge-metric regressions put down to the judge; the nights
 * without a change flag at most one in twenty; the history page and the
 * view show it, in Chromium.
 */
const NIGHTS = 24;
const CHANGED_NIGHT = 17;
const SUITE = 'nightly';
const SEED = 7;
const FINGERPRINT = 'fp_44709d6fcb';
const CHANGED_FINGERPRINT = 'fp_0b5c93ed7e';

let folder: TempFolder;
let server: OpenAiTestServer;
let nights: { outcome: BuiltCliOutcome; report: Report }[];

/** A dataset of `requests` requests with four documents each: two relevant to it (human grades 2 and 1) and two not (0). */
function dataset(prefix: string, requests: number): string {
  const rows = Array.from({ length: requests }, (_, index) => {
    const id = `${prefix}${String(index + 1).padStart(2, '0')}`;
    const documents = [0, 1, 2, 3].map((document) => `${id}-d${document}`);
    return JSON.stringify({
      request_id: id,
      request: `question ${id}`,
      engine: 'search',
      retrieved_context: documents.map((doc_uri, rank) => ({
        doc_uri,
        content: `${rank < 2 ? 'relevant' : 'irrelevant'} text of ${doc_uri}`,
      })),
      expected_retrieved_context: documents.map((doc_uri, rank) => ({ doc_uri, grade: [2, 1, 0, 0][rank] })),
    });
  });
  return `${rows.join('\n')}\n`;
}

const runIdOf = (outcome: BuiltCliOutcome): string => /^run (r-[0-9a-f]{16})$/m.exec(outcome.stdout)?.[1] ?? '';

beforeAll(async () => {
  folder = await createTempFolder();
  const data = await folder.write('nightly.jsonl', dataset('q', 16));
  await folder.write('canary.jsonl', dataset('c', 15));
  // The canary set is named relative to the config file.
  const config = await folder.write('config.yaml', 'judges: [chunk_relevance, graded_relevance]\ncanaries:\n  dataset: canary.jsonl\n');
  server = await startOpenAiTestServer({ oracle: () => ({ text: 'unused' }) });
  const store = join(folder.path, 'store');
  const env = { OPENAI_API_KEY: 'sk-test-canary', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
  nights = [];
  for (let night = 0; night < NIGHTS; night++) {
    const change = night === CHANGED_NIGHT ? { change: { share: 0.5, fingerprint: CHANGED_FINGERPRINT } } : {};
    server.setOracle(driftingJudge({ seed: SEED, night, noise: 0.02, mistakes: 0.1, fingerprint: FINGERPRINT, ...change }));
    const out = join(folder.path, `night-${night}`);
    // --no-cache: the run's own judgments are made afresh each night too, so a changed judge moves its metrics.
    const outcome = await runBuiltCli(['run', data, '--config', config, '--suite', SUITE, '--store', store, '--out', out, '--no-cache'], {
      env,
    });
    if (outcome.exitCode !== 0) throw new Error(`night ${night} exited ${outcome.exitCode}: ${outcome.stderr}`);
    nights.push({ outcome, report: reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))) });
    if (night === 0) {
      const baseline = await runBuiltCli(['baseline', 'set', runIdOf(outcome), '--suite', SUITE, '--store', store]);
      if (baseline.exitCode !== 0) throw new Error(`baseline set exited ${baseline.exitCode}: ${baseline.stderr}`);
    }
  }
}, 600_000);

afterAll(async () => {
  await server?.close();
  await folder?.remove();
});

const changedNight = () => nights[CHANGED_NIGHT] as { outcome: BuiltCliOutcome; report: Report };
const unchangedNights = () => nights.slice(1).filter((_, index) => index + 1 !== CHANGED_NIGHT);
const warningLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('assay: warning: judge changed'));

describe('a nightly suite with a judge canary', () => {
  it('flags the night the judge changed, with its flips, their p-value and its new fingerprint', () => {
    // Assess
    const { report, outcome } = changedNight();
    const canaries = report.canaries;
    expect(canaries?.compared_with).toBe(nights[0]?.report.run_id);
    expect(canaries?.changed_judges).toEqual(['chunk_relevance', 'graded_relevance']);
    const drift = canaries?.judges.chunk_relevance?.drift;
    expect(drift).toMatchObject({ test: 'mcnemar', paired: 60, verdicts_changed: true, identity_changed: true });
    expect(drift?.lower).toBeGreaterThan(10);
    expect(drift?.adjusted_p_value).toBeLessThan(0.01);
    expect(drift?.identities_before).toEqual([{ model: 'judge-model', system_fingerprint: FINGERPRINT }]);
    expect(canaries?.judges.chunk_relevance?.answered_by).toEqual([
      { model: 'judge-model', system_fingerprint: CHANGED_FINGERPRINT, calls: 60 },
    ]);
    expect(warningLines(outcome.stderr)[0]).toMatch(
      new RegExp(
        `^assay: warning: judge changed: chunk_relevance: ${drift?.changed} of 60 canary verdicts flipped \\(${drift?.lower} from yes to no, ${drift?.higher} from no to yes\\), p [<=] 0\\.0\\d+ \\(McNemar, Holm over 2 judges\\); model identity was judge-model ${FINGERPRINT}, now judge-model ${CHANGED_FINGERPRINT}; put down to the judge: search retrieval/llm_judged/chunk_relevance/`,
      ),
    );
  });

  it("puts that night's judge-metric regressions down to the judge, not to the engine", () => {
    // Assess: the judge's precision fell against the baseline; the report keeps it out of the engine's regressions
    const { report, outcome } = changedNight();
    const attributed = report.canaries?.attributed_regressions ?? [];
    expect(attributed.map((entry) => entry.metric)).toContain('retrieval/llm_judged/chunk_relevance/precision');
    expect(attributed.every((entry) => entry.judge === 'chunk_relevance' && entry.delta < 0)).toBe(true);
    expect(report.comparison?.engines.search?.['retrieval/llm_judged/chunk_relevance/precision']?.significant).toBe(true);
    expect(report.comparison?.regressions.filter((entry) => entry.metric.includes('/llm_judged/chunk_relevance/'))).toEqual([]);
    expect(outcome.stderr).not.toMatch(/^assay: regression .*chunk_relevance/m);
  });

  it('flags at most one night in twenty without a change, though the judge turned verdicts every night', () => {
    // Assess
    const unchanged = unchangedNights();
    const flagged = unchanged.filter((night) => (night.report.canaries?.changed_judges.length ?? 0) > 0);
    expect(unchanged).toHaveLength(NIGHTS - 2);
    expect(flagged.length / unchanged.length).toBeLessThanOrEqual(1 / 20);
    // The judge's own noise reached the canary: the tests had something to tell apart.
    const turned = unchanged.map((night) => night.report.canaries?.judges.chunk_relevance?.drift?.changed ?? 0);
    expect(turned.filter((count) => count > 0).length).toBeGreaterThan(unchanged.length / 2);
  });

  it('judges the canary afresh every night, past the judge cache, and records its verdicts, agreement and who answered', () => {
    for (const { report } of nights) {
      const canary = report.canaries?.judges.chunk_relevance;
      expect(report.canaries?.cases).toEqual({ total: 15, evaluated: 15, failed: 0, missing: 0 });
      expect(report.canaries?.usage.chunk_relevance).toMatchObject({ calls: 60, cache_hits: 0, errors: 0 });
      expect(canary?.items).toHaveLength(60);
      expect(canary?.agreement?.pairs).toBe(60);
      expect(canary?.answered_by).toHaveLength(1);
      // The run's own cases are the dataset's only.
      expect(report.cases.total).toBe(16);
    }
    expect(nights[0]?.report.canaries).toMatchObject({ compared_with: null, changed_judges: [] });
    // The run's own judge usage records who answered too.
    expect(nights[0]?.report.judges.chunk_relevance?.answered_by).toEqual([
      { model: 'judge-model', system_fingerprint: FINGERPRINT, calls: 64 },
    ]);
  });

  it('has `assay compare` of the baseline night and the changed one flag the same judges and keep their regressions out of the gate', async () => {
    // Act
    const compare = (...extra: string[]) =>
      runBuiltCli(['compare', join(folder.path, 'night-0'), join(folder.path, `night-${CHANGED_NIGHT}`), ...extra]);
    const [json, gated] = await Promise.all([compare('--json'), compare('--fail-on-regression')]);

    // Assess: the comparison's canary is the report's own against the same baseline
    expect(json.exitCode).toBe(0);
    const comparison = compareJsonSchema.parse(JSON.parse(json.stdout));
    const { report } = changedNight();
    expect(comparison.canaries?.compared_with).toBe(nights[0]?.report.run_id);
    expect(comparison.canaries?.changed_judges).toEqual(report.canaries?.changed_judges);
    expect(comparison.canaries?.judges.chunk_relevance).toMatchObject({
      changed_items: report.canaries?.judges.chunk_relevance?.drift?.changed,
      identity_changed: true,
    });
    const attributed = comparison.canaries?.attributed_regressions.map((entry) => `${entry.engine} ${entry.metric}`) ?? [];
    expect(attributed).toContain('search retrieval/llm_judged/chunk_relevance/precision');
    // The gate fails only on the engines' regressions, and names none of the judge's.
    const engines = Object.entries(comparison.engines).flatMap(([engine, metrics]) =>
      Object.entries(metrics).flatMap(([metric, compared]) => (compared.significant && compared.delta < 0 ? [`${engine} ${metric}`] : [])),
    );
    const enginesOwn = engines.filter((entry) => !attributed.includes(entry));
    expect(gated.exitCode).toBe(enginesOwn.length > 0 ? 1 : 0);
    for (const entry of attributed) expect(gated.stderr).not.toContain(entry.split(' ')[1]);
    expect(gated.stdout).toMatch(/^judge canaries of B against A:\n {2}judge changed: chunk_relevance: /m);
  });

  it("keeps the canary in the suite's history: every night's, the changed one flagged, its regressions the judge's", async () => {
    // Act
    const history = historyFileSchema.parse(
      JSON.parse(await readFile(join(folder.path, 'store', 'reports', SUITE, 'history.json'), 'utf8')),
    );

    // Assess
    expect(history.runs).toHaveLength(NIGHTS);
    const changed = history.runs.find((row) => row.run_id === changedNight().report.run_id);
    expect(changed?.canaries?.changed_judges).toEqual(['chunk_relevance', 'graded_relevance']);
    expect(changed?.canaries?.judges.chunk_relevance).toMatchObject({
      identity_changed: true,
      changed: true,
      answered_by: `judge-model ${CHANGED_FINGERPRINT}`,
    });
    expect(changed?.canaries?.attributed_regressions.length).toBeGreaterThan(0);
    expect(changed?.regressions.filter((entry) => entry.metric.includes('chunk_relevance'))).toEqual([]);
    expect(history.runs.every((row) => row.canaries?.judges.chunk_relevance?.items === 60)).toBe(true);
  });
});

describe('the judge canary in a browser', () => {
  let view: ViewProcess;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [view, browser] = await Promise.all([startViewProcess(['--store', join(folder.path, 'store'), '--port', '0']), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
    });
  }, BROWSER_LAUNCH_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await view?.stop();
  });

  it.each([
    ['history.html from the store', () => pathToFileURL(join(folder.path, 'store', 'reports', SUITE, 'history.html')).href, ''],
    ["assay view's page of the suite", () => `${view.url}suites/${SUITE}`, '/runs/'],
  ])(
    'shows the canary trends on %s, the changed night ringed and listed, and marked in the runs table',
    async (_described, address, runLink) => {
      // Act
      const response = await page.goto(address());

      // Assess
      expect(response === null || response.status() === 200).toBe(true);
      const section = page.locator('section#canaries');
      expect(await section.locator('h2').textContent()).toBe('Judge canaries');
      const changedRun = changedNight().report.run_id;
      const charts = section.locator('svg.trend-chart');
      expect(await charts.count()).toBe(2);
      // One ringed point per chart and judge: the changed night's.
      const ringed = await section
        .locator('a', { has: page.locator('.point.regression') })
        .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
      expect(ringed).toHaveLength(4);
      expect(ringed.every((href) => href?.includes(changedRun) === true)).toBe(true);
      expect(await section.locator('.legend').first().textContent()).toContain('ring: judge changed');
      const listed = await section.locator('ul.judge-changes > li').allTextContents();
      expect(listed).toHaveLength(1);
      expect(listed[0]).toContain(changedRun);
      expect(listed[0]).toMatch(/judge changed chunk_relevance: \d+ of 60 canary verdicts flipped/);
      const markedRows = page.locator('table.runs tbody tr', { has: page.locator('.changed', { hasText: 'judge changed' }) });
      expect(await markedRows.count()).toBe(1);
      expect(await markedRows.locator(`a[href*="${changedRun}"]`).count()).toBeGreaterThan(0);
      expect(runLink === '' || (await section.locator(`a[href="${runLink}${changedRun}"]`).count()) > 0).toBe(true);
      expect(errors).toEqual([]);
    },
  );

  it("shows the changed night's report with the judge flagged in the warnings and the canary table", async () => {
    // Act
    const response = await page.goto(`${view.url}runs/${changedNight().report.run_id}`);

    // Assess
    expect(response?.status()).toBe(200);
    expect(await page.locator('section#warnings li').first().textContent()).toMatch(/^judge changed: chunk_relevance: /);
    const flagged = page.locator('section#canaries tbody tr.flagged th');
    expect(await flagged.allTextContents()).toEqual(['chunk_relevance', 'graded_relevance']);
    expect(await page.locator('section#canaries tbody tr.flagged').first().textContent()).toContain(`(was judge-model ${FINGERPRINT})`);
    expect(errors).toEqual([]);
  });
});
