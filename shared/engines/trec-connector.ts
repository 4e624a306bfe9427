import type { Result } from '../schema/result.js';
import { repeatedDocumentError } from '../trec/run-line.js';
import { readRunLines, type RunLineSink } from '../trec-collection/trec-run-lines.js';
import { rankLikeTrecEval, type RunEntry } from '../trec-collection/trec-ranking.js';
import type { TrecConnectorConfig } from './connector-configs.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { permanent } from './engine-failure.js';

/** Run lines by topic id, then by tag. */
type RunTopics = Map<string, Map<string, RunEntry[]>>;

/** A run file's lines by topic and tag, and its tags in file order. */
type LoadedRun = Result<{ topics: RunTopics; tags: string[] }>;

/** A run file's lines by topic and tag number, and the first document a tag lists twice for a topic. */
class RunLines implements RunLineSink {
  readonly topics = new Map<string, Map<number, RunEntry[]>>();
  private readonly seen = new Map<string, Set<string>>();
  repeated: { line: number; qid: string; tag: number; docno: string } | undefined;
  readonly keepsScoreText = false;

  add(qid: string, tag: number, docno: string, score: number, line: number): void {
    const key = `${qid} ${tag}`;
    const docnos = this.seen.get(key) ?? new Set<string>();
    this.seen.set(key, docnos);
    if (docnos.has(docno)) {
      this.repeated ??= { line, qid, tag, docno };
      return;
    }
    docnos.add(docno);
    const byTag = this.topics.get(qid) ?? new Map<number, RunEntry[]>();
    this.topics.set(qid, byTag);
    const entries = byTag.get(tag) ?? [];
    byTag.set(tag, entries);
    entries.push({ docno, score });
  }

  async flushIfFull(): Promise<void> {}

  /** The lines by topic and tag name. */
  named(tags: readonly string[]): RunTopics {
    return new Map(
      [...this.topics].map(([qid, byTag]) => [qid, new Map([...byTag].map(([tag, entries]) => [tags[tag] as string, entries]))]),
    );
  }
}

/**
 * A frozen engine: a TREC run file, answered by topic id = the case's
 * request id and ranked as trec_eval ranks it. A topic the run lacks is an
 * empty list, as in trec_eval. The file is read once, at the first call.
 */
export function trecConnector(config: TrecConnectorConfig): Connector {
  let loading: Promise<LoadedRun> | undefined;
  const target = `trec run ${config.path}`;

  async function load(): Promise<LoadedRun> {
    const lines = new RunLines();
    let read: Awaited<ReturnType<typeof readRunLines>>;
    try {
      read = await readRunLines(config.path, lines);
    } catch (error) {
      return { ok: false, error: `${target}: cannot read the file: ${error instanceof Error ? error.message : String(error)}` };
    }
    // The run-line rule's first error, as ir-metrics stops at: a bad line or a repeated document, whichever comes first.
    const { repeated } = lines;
    const repeatError =
      repeated === undefined
        ? undefined
        : repeatedDocumentError(config.path, repeated.line, repeated.qid, repeated.docno, read.tags[repeated.tag]);
    const [firstBad] = read.errors;
    const first = repeatError !== undefined && (firstBad === undefined || repeatError.line < firstBad.line) ? repeatError : firstBad;
    if (first !== undefined) return { ok: false, error: `${target}: line ${first.line}: ${first.message} (fix: ${first.fix})` };
    return { ok: true, value: { topics: lines.named(read.tags), tags: read.tags } };
  }

  async function attempt(request: EngineRequest): Promise<ConnectorResult> {
    loading ??= load();
    const loaded = await loading;
    if (!loaded.ok) return permanent(loaded.error);
    const run = loaded.value;
    if (run.tags.length === 0) return { ok: true, value: { hits: [] } };
    const tag = config.tag ?? (run.tags.length === 1 ? run.tags[0] : undefined);
    if (tag === undefined) return permanent(`${target}: the file holds the runs ${run.tags.join(', ')} (fix: choose one with trec.tag)`);
    if (config.tag !== undefined && !run.tags.includes(config.tag)) {
      return permanent(`${target}: no run tagged "${config.tag}" (the file holds ${run.tags.join(', ')})`);
    }
    const entries = run.topics.get(request.request_id)?.get(tag) ?? [];
    return {
      ok: true,
      value: { hits: rankLikeTrecEval(entries).map(({ doc_uri, score }) => ({ doc_uri, ...(score === undefined ? {} : { score }) })) },
    };
  }

  return { attempt, close: async () => undefined };
}
