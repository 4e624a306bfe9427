import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../shared/schema/report.js';
import { startCuttingProxy, type CuttingProxy } from '../support/cutting-proxy.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { readRunFiles } from './fault-harness.js';

/**
 * A judge behind a gateway that drops every third answer in the middle of its
 * body, as an overloaded proxy does: `assay run` evaluates every case, with
 * the metrics of a run straight against the judge, and its report accounts
 * for every request the judge saw.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = 'chunk_relevance';

let server: OpenAiTestServer;
let proxy: CuttingProxy;
let folder: TempFolder;
beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: catalogOracle });
  proxy = await startCuttingProxy({ target: server.baseUrl, cutEvery: 3 });
  folder = await createTempFolder();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await proxy.close();
  await server.close();
  await folder.remove();
});

async function runThrough(baseUrl: string, name: string): Promise<{ exitCode: number; report: Report }> {
  vi.stubEnv('OPENAI_API_KEY', 'sk-dropped-connections-Tq5Wn2');
  vi.stubEnv('OPENAI_BASE_URL', baseUrl);
  vi.stubEnv('ASSAY_JUDGE_MODEL', 'judge-model');
  const out = join(folder.path, `out-${name}`);
  const result = await runCli(['run', DATASET, '--judges', JUDGES, '--store', join(folder.path, `store-${name}`), '--out', out]);
  return { exitCode: result.exitCode, report: (await readRunFiles(out)).report };
}

const requestsOf = (report: Report): number =>
  Object.values(report.judges).reduce((total, usage) => total + usage.calls + usage.retries, 0);

describe('a judge behind a proxy that cuts every third answer mid-body', () => {
  it('evaluates every case with the metrics of a run without the proxy, and counts every request the judge saw', async () => {
    // Prepare: the same run straight against the judge, for the expected metrics
    const straight = await runThrough(server.baseUrl, 'straight');
    const seenBefore = server.log.length;

    // Act
    const proxied = await runThrough(proxy.baseUrl, 'proxied');

    // Assess
    expect(straight.exitCode).toBe(0);
    expect(proxied.exitCode).toBe(0);
    expect(proxy.cuts()).toBeGreaterThan(0);
    expect(proxied.report.cases).toMatchObject({
      total: straight.report.cases.total,
      evaluated: straight.report.cases.total,
      failed: 0,
      missing: 0,
    });
    expect(proxied.report.engines).toEqual(straight.report.engines);
    const seen = server.log.length - seenBefore;
    expect(proxy.requests()).toBe(seen);
    expect(requestsOf(proxied.report)).toBe(seen);
    for (const usage of Object.values(proxied.report.judges)) expect(usage.errors).toBe(0);
  });
});
