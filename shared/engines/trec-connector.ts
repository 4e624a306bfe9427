import { readCollectionRun, type RunTopics } from '../trec-collection/trec-run-reader.js';
import { rankLikeTrecEval } from '../trec-collection/trec-ranking.js';
import type { TrecConnectorConfig } from './connector-configs.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { permanent } from './engine-failure.js';

type LoadedRun = { ok: true; topics: RunTopics; tags: string[] } | { ok: false; message: string };

/**
 * A frozen engine: a TREC run file, answered by topic id = the case's
 * request id and ranked as trec_eval ranks it. A topic the run lacks is an
 * empty list, as in trec_eval. The file is read once, at the first call.
 */
export function trecConnector(config: TrecConnectorConfig): Connector {
  let loading: Promise<LoadedRun> | undefined;
  const target = `trec run ${config.path}`;

  async function load(): Promise<LoadedRun> {
    const topics: RunTopics = new Map();
    const tags = new Set<string>();
    let read: Awaited<ReturnType<typeof readCollectionRun>>;
    try {
      read = await readCollectionRun(config.path, { topics, seen: new Map(), engineFor: (tag) => {
          tags.add(tag);
          return tag;
        },
      });
    } catch (error) {
      return { ok: false, message: `${target}: cannot read the file: ${error instanceof Error ? error.message : String(error)}` };
    }
    const [first] = read.errors;
    if (first !== undefined) return { ok: false, message: `${target}: line ${first.line}: ${first.message} (fix: ${first.fix})` };
    return { ok: true, topics, tags: [...tags] };
  }

  async function attempt(request: EngineRequest): Promise<ConnectorResult> {
    loading ??= load();
    const run = await loading;
    if (!run.ok) return permanent(run.message);
    if (run.tags.length === 0) return { ok: true, hits: [] };
    const tag = config.tag ?? (run.tags.length === 1 ? run.tags[0] : undefined);
    if (tag === undefined) return permanent(`${target}: the file holds the runs ${run.tags.join(', ')} (fix: choose one with trec.tag)`);
    if (config.tag !== undefined && !run.tags.includes(config.tag)) {
      return permanent(`${target}: no run tagged "${config.tag}" (the file holds ${run.tags.join(', ')})`);
    }
    const entries = run.topics.get(request.request_id)?.get(tag) ?? [];
    return { ok: true, hits: rankLikeTrecEval(entries).map(({ doc_uri, score }) => ({ doc_uri, ...(score === undefined ? {} : { score }) })) };
  }

  return { attempt, close: async () => undefined };
}
