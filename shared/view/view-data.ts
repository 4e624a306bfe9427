import pLimit from 'p-limit';
import type { z } from 'zod';
import { parseReportJson } from '../compare/run-files.js';
import { historyFileSchema, suiteCardSchema, type HistoryFile, type SuiteCard, type UnreadableRow } from '../history/history-file.js';
import { historyKeys } from '../history/history-keys.js';
import { runKeys } from '../run/run-identity.js';
import type { ObjectStore } from '../ports/object-store.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import type { Report } from '../schema/report.js';
import { manifestSchema } from '../schema/run-records.js';
import { found, missing, unreadable, type Found } from './found.js';
import { LocalCopies } from './local-copies.js';
import { RefusedListing, type StoredObject, type ViewStore } from './stored-object.js';
import { viewStoreOf } from './view-store.js';

/** A reported run: where its files are and its report, with a version that changes whenever its report is written again. */
export interface StoredRun {
  readonly runId: string;
  readonly suite: string;
  readonly reportBytes: Uint8Array;
  readonly report: Report;
  readonly version: string;
}

/** A local copy of a run's cases.jsonl as it is in the store now, and the version of the object it was copied from. */
export interface CasesFile {
  readonly path: string;
  readonly version: string;
}

/**
 * What `assay view` reads from a store, every key made by historyKeys or
 * runKeys from checked names (route-params.ts): the suites' cards, a suite's
 * history, a run's report files. Nothing is cached but local copies of
 * cases.jsonl, checked against the object's version on every use, so every
 * page shows the store as it is now. An object that cannot be read (not
 * JSON, not of its shape, not a regular file of the store) is a 500 naming
 * it, for a page and for the API alike.
 */
export class ViewData {
  private readonly copies: LocalCopies;
  private readonly store: ViewStore;

  /** `store` is read through viewStoreOf: a local folder as regular files only, a bucket by ETag. */
  constructor(store: ObjectStore, scratchFolder: string) {
    this.store = viewStoreOf(store);
    this.copies = new LocalCopies(this.store, scratchFolder);
  }

  /** Every suite with a history, by name, and the cards that could not be read. */
  async suites(): Promise<{ cards: SuiteCard[]; unreadable: UnreadableRow[] }> {
    const keys: string[] = [];
    const unreadableCards: UnreadableRow[] = [];
    try {
      for await (const key of this.store.list(historyKeys.cardsPrefix)) keys.push(key);
    } catch (error) {
      if (!(error instanceof RefusedListing)) throw error;
      unreadableCards.push({ key: error.key, reason: error.reason });
    }
    const limit = pLimit(16);
    const cards: SuiteCard[] = [];
    await Promise.all(
      keys.map((key) =>
        limit(async () => {
          const read = parsedJson(key, await this.store.read(key), suiteCardSchema);
          if (read.ok) cards.push(read.value);
          // The page names the card beside its reason.
          else if (read.error.status === 500)
            unreadableCards.push({
              key,
              reason: read.error.message.startsWith(`${key}: `) ? read.error.message.slice(key.length + 2) : read.error.message,
            });
        }),
      ),
    );
    cards.sort((left, right) => (left.suite < right.suite ? -1 : left.suite > right.suite ? 1 : 0));
    return { cards, unreadable: unreadableCards.sort((left, right) => (left.key < right.key ? -1 : 1)) };
  }

  /** history.json's bytes as stored, once they are checked to be a history (the API answers a corrupt one as the page does). */
  async historyBytes(suite: string): Promise<Found<Uint8Array>> {
    const read = await this.historyRead(suite);
    return read.ok ? found(read.value.bytes) : read;
  }

  async history(suite: string): Promise<Found<HistoryFile>> {
    const read = await this.historyRead(suite);
    return read.ok ? found(read.value.history) : read;
  }

  private async historyRead(suite: string): Promise<Found<{ bytes: Uint8Array; history: HistoryFile }>> {
    const key = historyKeys.json(suite);
    const read = await this.store.read(key);
    if (read.state === 'absent') return missing(noHistory(suite));
    const parsed = parsedJson(key, read, historyFileSchema);
    if (!parsed.ok) return unreadable(`${parsed.error.message}; assay history rebuild --suite ${suite} makes it again`);
    return found({ bytes: read.state === 'found' ? read.value : new Uint8Array(), history: parsed.value });
  }

  /**
   * A reported run: its suite from its manifest, or, once `runs/` has
   * expired (the deployed bucket keeps runs' records for a while only), from
   * the suite whose reports hold it.
   */
  async run(runId: string): Promise<Found<StoredRun>> {
    const suite = await this.suiteOf(runId);
    if (!suite.ok) return suite;
    const key = runKeys.report(suite.value, runId, 'report.json');
    const read = await this.store.read(key);
    if (read.state === 'absent') return missing(`run ${runId} of suite ${suite.value} has no report yet`);
    if (read.state === 'refused') return unreadable(refusedMessage(key, read.reason));
    const parsed = parseReportJson(new TextDecoder().decode(read.value));
    if (!parsed.ok) return unreadable(`${key}: ${parsed.error.message}`);
    return found({ runId, suite: suite.value, reportBytes: read.value, report: parsed.value, version: read.version });
  }

  /** The run's report.html as stored. */
  async reportHtml(run: StoredRun): Promise<Found<string>> {
    const key = runKeys.report(run.suite, run.runId, 'report.html');
    const read = await this.store.read(key);
    if (read.state === 'absent') return missing(`run ${run.runId} has no report.html`);
    if (read.state === 'refused') return unreadable(refusedMessage(key, read.reason));
    return found(new TextDecoder().decode(read.value));
  }

  /** A local copy of the run's cases.jsonl as it is now, to read as a stream. */
  async casesFile(run: StoredRun): Promise<Found<CasesFile>> {
    const key = runKeys.report(run.suite, run.runId, 'cases.jsonl');
    const copy = await this.copies.path(key);
    if (copy.state === 'absent') return missing(`run ${run.runId} has no cases.jsonl`);
    if (copy.state === 'refused') return unreadable(refusedMessage(key, copy.reason));
    return found({ path: copy.value, version: copy.version });
  }

  private async suiteOf(runId: string): Promise<Found<string>> {
    const key = runKeys.manifest(runId);
    const read = await this.store.read(key);
    if (read.state === 'refused') return unreadable(refusedMessage(key, read.reason));
    const manifest = parsedJson(key, read, manifestSchema);
    if (manifest.ok) return found(manifest.value.suite);
    for (const card of (await this.suites()).cards) {
      const report = await this.store.version(runKeys.report(card.suite, runId, 'report.json'));
      if (report.state !== 'absent') return found(card.suite);
    }
    return missing(`no run ${runId} in this store`);
  }
}

function noHistory(suite: string): string {
  return `suite ${suite} has no history in this store; a report of the suite writes it, or assay history rebuild --suite ${suite} makes it from the reports written before`;
}

/** Why an object is not read, naming it: the reason names it when the object itself is refused, else the part of its path that is. */
function refusedMessage(key: string, reason: string): string {
  return reason.startsWith(`${key} `) ? reason : `${key} cannot be read: ${reason}`;
}

/** An object's JSON through a schema: absent is a 404; refused, unparseable or of another shape a 500 naming the object and the first problem. */
function parsedJson<Schema extends z.ZodType>(key: string, read: StoredObject<Uint8Array>, schema: Schema): Found<z.output<Schema>> {
  if (read.state === 'absent') return missing(`${key} is not in the store`);
  if (read.state === 'refused') return unreadable(refusedMessage(key, read.reason));
  const parsed = parseJsonWith(schema, read.value);
  return parsed.ok ? found(parsed.value) : unreadable(`${key}: ${parsed.error}`);
}
