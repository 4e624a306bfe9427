import type { InputError } from '../schema/input-error.js';
import { readLines } from '../readers/text-lines.js';
import { parseTrecScore, splitTrecFields, type LineProblem } from './trec-fields.js';
import type { RunEntry } from './trec-ranking.js';

/** Run lines by topic id, then by engine (the run tag). */
export type RunTopics = Map<string, Map<string, RunEntry[]>>;

/** Where readCollectionRun puts what it reads; shared by all the run files of a collection. */
export interface RunTarget {
  topics: RunTopics;
  /** Docnos seen per topic and engine, to catch repeats. */
  seen: Map<string, Set<string>>;
  engineFor: (tag: string) => string;
}

interface RunLine {
  qid: string;
  docno: string;
  score: number;
  tag: string;
}

const RUN_LINE = 'write each result as: topic-id Q0 document-id rank score run-tag (e.g. "301 Q0 FBIS3-10082 1 12.5 bm25")';

/**
 * Streams a TREC run file (`qid Q0 docno rank score tag`, extra fields
 * ignored as trec_eval does) into `target`. Several run files may feed the same
 * target: `engineFor` names the engine of each run tag. A docno repeated within
 * a topic of one engine is an error, as in trec_eval. Returns the lines read
 * and the errors: every bad line is one, and reading goes on (shared/trec's
 * readRun, for ir-metrics, stops at the first).
 */
export async function readCollectionRun(file: string, target: RunTarget): Promise<{ rows: number; errors: InputError[] }> {
  const errors: InputError[] = [];
  let rows = 0;
  for await (const { line, text } of readLines(file)) {
    const fields = splitTrecFields(text);
    if (fields.length === 0) continue;
    rows += 1;
    const parsed = parseRunLine(fields);
    if ('message' in parsed) {
      errors.push({ file, line, ...parsed });
      continue;
    }
    const { qid, docno, score, tag } = parsed;
    const engine = target.engineFor(tag);
    // One set per topic and engine; the separator cannot occur inside a whitespace-split field.
    const key = `${qid} ${engine}`;
    const docnos = target.seen.get(key) ?? new Set<string>();
    target.seen.set(key, docnos);
    if (docnos.has(docno)) {
      errors.push({ file, line, field: 'docno', message: `run ${engine} retrieves document ${docno} twice for topic ${qid}`, fix: 'keep one line per topic and document in each run' });
      continue;
    }
    docnos.add(docno);
    const byEngine = target.topics.get(qid) ?? new Map<string, RunEntry[]>();
    target.topics.set(qid, byEngine);
    const entries = byEngine.get(engine) ?? [];
    byEngine.set(engine, entries);
    entries.push({ docno, score });
  }
  return { rows, errors };
}

function parseRunLine(fields: readonly string[]): RunLine | LineProblem {
  if (fields.length < 6) return { message: `expected 6 fields (qid Q0 docno rank score tag), got ${fields.length}`, fix: RUN_LINE };
  const [qid = '', , docno = '', , scoreText = '', tag = ''] = fields;
  const score = parseTrecScore(scoreText);
  if (score === undefined) return { field: 'score', message: `expected a finite number, got "${scoreText}"`, fix: 'give the score as a decimal number' };
  return { qid, docno, score, tag };
}
