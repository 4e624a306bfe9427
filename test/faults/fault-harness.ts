import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { awsInfrastructure, embeddedInfrastructure, type Infrastructure } from '../../cli/run/store-and-queues.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { SimulatedClock } from '../support/simulated-clock.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * Shared pieces of the fault suite: a dataset whose pooled (query, document)
 * pairs are known, and the assertions every fault test makes: each case ends
 * evaluated or failed exactly once, none is missing, and the judge was not
 * paid for more answers than there are unique pooled pairs.
 */

export interface FaultDataset {
  readonly path: string;
  readonly caseIds: readonly string[];
  /** Unique (query, passage) pairs over both engines: what chunk_relevance should be asked, once each. */
  readonly uniquePairs: number;
}

/**
 * `cases` queries, each answered by two engines whose top 3 overlap in two
 * passages, so pooling judges 4 passages a query instead of 6. Half of the
 * passages mention "rotate", which the catalog oracle reads as relevant.
 */
export async function writeFaultDataset(folder: TempFolder, cases: number, name = 'faults.jsonl'): Promise<FaultDataset> {
  const rows: object[] = [];
  const caseIds: string[] = [];
  for (let index = 0; index < cases; index++) {
    const requestId = `q${String(index).padStart(3, '0')}`;
    caseIds.push(requestId);
    const passage = (k: number) => ({
      doc_uri: `${requestId}-d${k}`,
      content: `${k % 2 === 0 ? 'rotate rotate the key' : 'an unrelated note'} ${requestId} passage ${k}`,
    });
    const request = `How do I rotate key ${index}?`;
    rows.push({
      request_id: requestId,
      request,
      engine: 'bm25',
      response: `Rotate key ${index}.`,
      retrieved_context: [1, 2, 3].map(passage),
    });
    rows.push({
      request_id: requestId,
      request,
      engine: 'hybrid',
      response: `Rotate key ${index} now.`,
      retrieved_context: [2, 3, 4].map(passage),
    });
  }
  const path = await folder.write(name, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  return { path, caseIds, uniquePairs: cases * 4 };
}

export interface RunFiles {
  readonly report: Report;
  readonly caseLines: readonly { case_id: string; engine: string }[];
}

export async function readRunFiles(outFolder: string): Promise<RunFiles> {
  const report = reportSchema.parse(JSON.parse(await readFile(join(outFolder, 'report.json'), 'utf8')));
  const text = await readFile(join(outFolder, 'cases.jsonl'), 'utf8');
  const caseLines = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { case_id: string; engine: string });
  return { report, caseLines };
}

/** Every case is evaluated or failed, exactly once; none is missing; each evaluated case has one line per engine. */
export function expectEveryCaseOnce(files: RunFiles, dataset: FaultDataset, engines: readonly string[] = ['bm25', 'hybrid']): void {
  const { report, caseLines } = files;
  expect(report.cases.total).toBe(dataset.caseIds.length);
  expect(report.cases.missing).toBe(0);
  expect(report.missing_cases).toEqual([]);
  expect(report.cases.evaluated + report.cases.failed).toBe(dataset.caseIds.length);
  const evaluated = [...new Set(caseLines.map((line) => line.case_id))];
  expect(evaluated).toHaveLength(report.cases.evaluated);
  const failed = report.failed_cases.map((failure) => failure.case_id);
  expect(new Set(failed).size).toBe(failed.length);
  expect(evaluated.filter((caseId) => failed.includes(caseId))).toEqual([]);
  expect([...evaluated, ...failed].sort()).toEqual([...dataset.caseIds].sort());
  const lines = caseLines.map((line) => `${line.case_id}|${line.engine}`);
  expect(new Set(lines).size).toBe(lines.length);
  expect(lines).toHaveLength(report.cases.evaluated * engines.length);
}

/** Chat requests the judge server answered with a verdict, for one judge (by its response_format name), from the log entry `from` on. */
export function answeredCalls(server: OpenAiTestServer, judge: string, from = 0): number {
  return server.log.slice(from).filter((entry) => entry.outcome === 'answer' && formatName(entry.request.response_format) === judge).length;
}

/** Every chat request the judge server received for one judge, answered or faulted. */
export function requestsFor(server: OpenAiTestServer, judge: string): number {
  return server.log.filter((entry) => formatName(entry.request.response_format) === judge).length;
}

function formatName(format: unknown): string | undefined {
  return (format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
}

/** Where the fault suite runs the pipeline: the embedded default, and S3/SQS on the emulator. */
export const FAULT_PLACES = [
  { name: 'embedded', onEmulator: false },
  { name: 'over the S3/SQS emulator', onEmulator: true },
] as const;
export type FaultPlace = (typeof FAULT_PLACES)[number];

/** Received messages stay hidden this long in every fault run: short, so slow judges outlast it. */
export const VISIBILITY_TIMEOUT_SECONDS = 2;

export interface FaultRun {
  readonly server: OpenAiTestServer;
  readonly folder: TempFolder;
  /** The place's store and queues, the emulator started on first use. */
  infrastructure(bucket: string): Promise<Infrastructure>;
}

/**
 * A judge test server, a temp folder and (over the emulator) a fauxqs per
 * test, started before each test of the enclosing describe and stopped after.
 * With `simulatedTime`, the embedded place runs on a simulated clock (a new
 * one each test): its queues' visibility timeouts and delays, the drive's
 * waits and heartbeats, and the judge server's slow answers take no wall
 * time. The emulator keeps the wall's time, and so do runs over it.
 */
export function useFaultRun(place: FaultPlace, options: { readonly simulatedTime?: boolean } = {}): FaultRun {
  let server: OpenAiTestServer | undefined;
  let folder: TempFolder | undefined;
  let emulator: Fauxqs | undefined;
  let clock: SimulatedClock | undefined;
  beforeEach(async () => {
    clock = options.simulatedTime === true && !place.onEmulator ? new SimulatedClock() : undefined;
    server = await startOpenAiTestServer({ oracle: catalogOracle, ...(clock === undefined ? {} : { clock }) });
    folder = await createTempFolder();
  });
  afterEach(async () => {
    clock?.stop();
    await server?.close();
    await emulator?.close();
    emulator = undefined;
    await folder?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the fault run starts in beforeEach: use it inside a test');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get folder() {
      return started(folder);
    },
    async infrastructure(bucket) {
      if (!place.onEmulator)
        return embeddedInfrastructure(join(started(folder).path, 'store'), VISIBILITY_TIMEOUT_SECONDS, undefined, clock);
      emulator ??= await startFauxqs();
      return awsInfrastructure(emulator.endpoint, bucket, VISIBILITY_TIMEOUT_SECONDS);
    },
  };
}
