import type { EvalCase } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { DatasetError } from './dataset-error.js';

/**
 * A case built elsewhere (a worker thread) and handed over as text: cheap to
 * send between threads, and for a long case already in the form the pipeline
 * stores it in, so nobody builds its thousands of chunk objects twice.
 */
export type SerializedCase = SerializedCaseHead & (CaseJson | StoredCaseJson);

/** The case's own JSON. */
interface CaseJson {
  readonly form: 'case';
  readonly text: string;
}

/** Its stored form (stored-case.ts), for a case of more than INLINE_CHUNK_LIMIT chunks: as text, or as the UTF-8 bytes the store writes. */
interface StoredCaseJson {
  readonly form: 'stored';
  readonly text: string | Uint8Array;
}

/** What a serialized case says of itself beside its text. */
export interface SerializedCaseHead {
  readonly requestId: string;
  /** Its engines, in the case's order. */
  readonly engines: readonly string[];
  readonly references: CaseReferences;
  /** Chunks over all its engines. */
  readonly chunks: number;
}

/** Totals of one load, reported at its end. */
export interface DatasetCounts {
  /** Rows read from the file, good or bad (for TREC input, qrels and run lines). */
  rows: number;
  cases: number;
  /** Engine name → number of cases that engine answered. */
  engines: Record<string, number>;
  /** Labelled cases: those with relevance labels, the cases ground-truth metrics exist for (isLabelled). */
  labelled_cases: number;
  /** Cases with an expected response, labelled or not: what the correctness judges compare the answers with. */
  expected_response_cases: number;
  /** Cases with a person's verdict on an engine's answer (human_verdicts), labelled or not. */
  human_verdict_cases: number;
  errors: number;
}

/** The counts of a load before its first row. */
export function emptyCounts(): DatasetCounts {
  return { rows: 0, cases: 0, engines: {}, labelled_cases: 0, expected_response_cases: 0, human_verdict_cases: 0, errors: 0 };
}

/** What a case carries for people's judgment to be compared with, each counted apart (docs/datasets.md#labelled-cases). */
export interface CaseReferences {
  readonly labelled: boolean;
  readonly expectedResponse: boolean;
  readonly humanVerdicts: boolean;
}

/**
 * What a load produces, in this order: errors as the rows are read, then the
 * cases (grouping needs the whole file first), then one `end` with the counts.
 */
export type DatasetEvent =
  /** `serialized`: the case as built on a worker thread; its `case` is then read from that text only when asked for. */
  | { kind: 'case'; case: EvalCase; serialized?: SerializedCase }
  | { kind: 'error'; error: InputError }
  | { kind: 'end'; counts: DatasetCounts };

/**
 * A labelled case has relevance labels: at least one expected document
 * (expected_retrieved_context, or a TREC topic's qrels). Those are the cases
 * ground-truth metrics are computed on; an expected response or human
 * verdicts alone do not make a case labelled (docs/datasets.md#labelled-cases).
 */
export function isLabelled(evalCase: EvalCase): boolean {
  return (evalCase.expected_retrieved_context?.length ?? 0) > 0;
}

export function referencesOf(evalCase: EvalCase): CaseReferences {
  return {
    labelled: isLabelled(evalCase),
    expectedResponse: evalCase.expected_response !== undefined,
    humanVerdicts: Object.values(evalCase.engines).some((output) => Object.keys(output.human_verdicts ?? {}).length > 0),
  };
}

/** Keeps the counts of a load as its events go by. */
export class DatasetCounter {
  private readonly counts: DatasetCounts = emptyCounts();

  row(count = 1): void {
    this.counts.rows += count;
  }

  error(): void {
    this.counts.errors += 1;
  }

  case(evalCase: EvalCase): void {
    this.caseOf(Object.keys(evalCase.engines), referencesOf(evalCase));
  }

  /** A case by its engines and the references it carries. */
  caseOf(engines: readonly string[], references: CaseReferences): void {
    this.counts.cases += 1;
    if (references.labelled) this.counts.labelled_cases += 1;
    if (references.expectedResponse) this.counts.expected_response_cases += 1;
    if (references.humanVerdicts) this.counts.human_verdict_cases += 1;
    for (const engine of engines) {
      // Own values only: an engine named "constructor" must not count from Object.prototype's.
      const counted = Object.hasOwn(this.counts.engines, engine) ? (this.counts.engines[engine] ?? 0) : 0;
      this.counts.engines[engine] = counted + 1;
    }
  }

  get rows(): number {
    return this.counts.rows;
  }

  get errors(): number {
    return this.counts.errors;
  }

  snapshot(): DatasetCounts {
    return { ...this.counts, engines: { ...this.counts.engines } };
  }
}

/** In strict mode the first error ends the load with a DatasetError. */
export async function* throwingOnFirstError(events: AsyncIterable<DatasetEvent>, strict: boolean): AsyncGenerator<DatasetEvent> {
  for await (const event of events) {
    if (strict && event.kind === 'error') throw new DatasetError(event.error);
    yield event;
  }
}

/** Everything a load produced, for callers that want it all in memory (tests, small files). */
export interface CollectedDataset {
  cases: EvalCase[];
  errors: InputError[];
  counts: DatasetCounts;
}

export async function collectDataset(events: AsyncIterable<DatasetEvent>): Promise<CollectedDataset> {
  const collected: CollectedDataset = { cases: [], errors: [], counts: emptyCounts() };
  for await (const event of events) {
    if (event.kind === 'case') collected.cases.push(event.case);
    else if (event.kind === 'error') collected.errors.push(event.error);
    else collected.counts = event.counts;
  }
  return collected;
}
