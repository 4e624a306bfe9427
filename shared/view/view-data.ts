import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { parseReportJson } from '../compare/run-files.js';
import { historyFileSchema, suiteCardSchema, type HistoryFile, type SuiteCard, type UnreadableRow } from '../history/history-file.js';
import { historyKeys } from '../history/history-keys.js';
import { runKeys } from '../run/run-identity.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { Report } from '../schema/report.js';
import { manifestSchema } from '../schema/run-records.js';
import { found, missing, unreadable, type Found } from './found.js';
import { LocalCopies } from './local-copies.js';

/** A reported run: where its files are and its report, with a version that changes whenever its report is written again. */
export interface StoredRun {
  readonly runId: string;
  readonly suite: string;
  readonly reportBytes: Uint8Array;
  readonly report: Report;
  readonly version: string;
}

/**
 * What `assay view` reads from a store, every key made by historyKeys or
 * runKeys from checked names (route-params.ts): the suites' cards, a suite's
 * history, a run's report files. Nothing is cached but local copies of
 * cases.jsonl, checked against their report's version on every use, so every
 * page shows the store as it is now.
 */
export class ViewData {
  private readonly copies: LocalCopies;

  constructor(
    readonly store: ObjectStore,
    scratchFolder: string,
  ) {
    this.copies = new LocalCopies(store, scratchFolder);
  }

  /** Every suite with a history, by name, and the cards that could not be read. */
  async suites(): Promise<{ cards: SuiteCard[]; unreadable: UnreadableRow[] }> {
    const keys: string[] = [];
    for await (const key of this.store.list(historyKeys.cardsPrefix)) keys.push(key);
    const limit = pLimit(16);
    const cards: SuiteCard[] = [];
    const unreadableCards: UnreadableRow[] = [];
    await Promise.all(
      keys.map((key) =>
        limit(async () => {
          const read = parsedJson(await this.store.get(key), (json) => suiteCardSchema.safeParse(json));
          if (read.ok) cards.push(read.value);
          else if (read.status === 500) unreadableCards.push({ key, reason: read.message });
        }),
      ),
    );
    cards.sort((left, right) => (left.suite < right.suite ? -1 : left.suite > right.suite ? 1 : 0));
    return { cards, unreadable: unreadableCards.sort((left, right) => (left.key < right.key ? -1 : 1)) };
  }

  /** history.json's bytes, as stored. */
  async historyBytes(suite: string): Promise<Found<Uint8Array>> {
    const bytes = await this.store.get(historyKeys.json(suite));
    return bytes === undefined ? missing(noHistory(suite)) : found(bytes);
  }

  async history(suite: string): Promise<Found<HistoryFile>> {
    const bytes = await this.historyBytes(suite);
    if (!bytes.ok) return bytes;
    const parsed = parsedJson(bytes.value, (json) => historyFileSchema.safeParse(json));
    return parsed.ok ? parsed : unreadable(`${historyKeys.json(suite)}: ${parsed.message}; assay history rebuild --suite ${suite} makes it again`);
  }

  /**
   * A reported run: its suite from its manifest, or, once `runs/` has
   * expired (the deployed bucket keeps runs' records for a while only), from
   * the suite whose reports hold it.
   */
  async run(runId: string): Promise<Found<StoredRun>> {
    const suite = await this.suiteOf(runId);
    if (suite === undefined) return missing(`no run ${runId} in this store`);
    const key = runKeys.report(suite, runId, 'report.json');
    const reportBytes = await this.store.get(key);
    if (reportBytes === undefined) return missing(`run ${runId} of suite ${suite} has no report yet`);
    const parsed = parseReportJson(new TextDecoder().decode(reportBytes));
    if (!parsed.ok) return unreadable(`${key}: ${parsed.message}`);
    const version = createHash('sha256').update(reportBytes).digest('hex');
    return found({ runId, suite, reportBytes, report: parsed.value, version });
  }

  /** The run's report.html as stored. */
  async reportHtml(run: StoredRun): Promise<Found<string>> {
    const bytes = await this.store.get(runKeys.report(run.suite, run.runId, 'report.html'));
    return bytes === undefined ? missing(`run ${run.runId} has no report.html`) : found(new TextDecoder().decode(bytes));
  }

  /** A local copy of the run's cases.jsonl, to read as a stream. */
  async casesFile(run: StoredRun): Promise<Found<string>> {
    const path = await this.copies.path(runKeys.report(run.suite, run.runId, 'cases.jsonl'), run.version);
    return path === undefined ? missing(`run ${run.runId} has no cases.jsonl`) : found(path);
  }

  private async suiteOf(runId: string): Promise<string | undefined> {
    const manifest = parsedJson(await this.store.get(runKeys.manifest(runId)), (json) => manifestSchema.safeParse(json));
    if (manifest.ok) return manifest.value.suite;
    for (const card of (await this.suites()).cards) {
      if ((await this.store.get(runKeys.report(card.suite, runId, 'report.json'))) !== undefined) return card.suite;
    }
    return undefined;
  }
}

function noHistory(suite: string): string {
  return `suite ${suite} has no history in this store; a report of the suite writes it, or assay history rebuild --suite ${suite} makes it from the reports written before`;
}

/** An object's JSON through a schema: absent is a 404, unparseable a 500 with the first problem. */
function parsedJson<Value>(
  bytes: Uint8Array | undefined,
  parse: (json: unknown) => { success: true; data: Value } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } },
): Found<Value> {
  if (bytes === undefined) return missing('not in the store');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    return unreadable(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = parse(json);
  if (parsed.success) return found(parsed.data);
  const [issue] = parsed.error.issues;
  return unreadable(issue === undefined ? 'unexpected shape' : `field "${issue.path.map(String).join('.')}": ${issue.message}`);
}
