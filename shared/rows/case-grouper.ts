import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_ENGINE, type EngineOutput, type EvalCase, type Tags } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { splitTags } from './case-tags.js';
import { requestIdFor } from './content-ids.js';
import { withoutUndefined } from './documents.js';
import { hasOwnKey } from './own-keys.js';
import type { NormalisedRow } from './normalise-row.js';

const EXPECTED_FIELDS = ['expected_response', 'expected_facts', 'expected_retrieved_context'] as const;
type ExpectedField = (typeof EXPECTED_FIELDS)[number];

interface CaseInProgress {
  request_id: string;
  request: string;
  firstLine: number;
  engines: Map<string, { line: number; output: Omit<EngineOutput, 'tags'>; tags: Tags }>;
  expected: Pick<EvalCase, ExpectedField>;
  /** Line where each label was first given, to point at in a conflict. */
  expectedLines: Partial<Record<ExpectedField, number>>;
  labelTags: Tags;
}

/** How a request id becomes the id its case goes by downstream, and how to fix two requests that share one. */
export interface CaseIdRule {
  readonly idOf: (requestId: string) => string;
  /** Advice for the user, after "give the requests on lines A and B distinct request_ids". */
  readonly fix: string;
}

/** Cases go by their request ids: no two requests can share one. */
const REQUEST_ID_IS_CASE_ID: CaseIdRule = { idOf: (requestId) => requestId, fix: '' };

/**
 * Groups rows into cases: one case per request, holding every engine's output
 * for it. Rows of one request may be anywhere in the file, so every case is
 * held until the file ends: memory grows with the number of cases (and their
 * content), not with anything else. Rows are grouped by request_id when given,
 * else by the exact request text, whose hash becomes the request_id.
 *
 * A row that contradicts its case (a second row for the same engine, other
 * labels, another request text under the same id) is rejected whole. So is
 * a request whose case id (`caseIds`, the id its case goes by downstream)
 * another request already has: of two requests on one case id the first
 * keeps it and every row of the later one is rejected, so neither can
 * overwrite the other's result.
 */
export class CaseGrouper {
  private readonly cases = new Map<string, CaseInProgress>();
  /** Case id → the case that holds it, when case ids are not the request ids themselves. */
  private readonly caseIdOwners = new Map<string, CaseInProgress>();

  constructor(
    private readonly file: string,
    private readonly caseIds: CaseIdRule = REQUEST_ID_IS_CASE_ID,
  ) {}

  /** Adds a row to its case; returns why it was rejected, or nothing. */
  add(row: NormalisedRow): InputError[] {
    const requestId = row.request_id ?? requestIdFor(row.request);
    const existing = this.cases.get(requestId);
    const errors = existing === undefined ? this.caseIdTaken(requestId, row) : this.conflicts(existing, row);
    if (errors.length > 0) return errors;
    const current = existing ?? this.open(requestId, row);
    for (const field of EXPECTED_FIELDS) {
      if (row[field] !== undefined) current.expectedLines[field] ??= row.line;
    }
    current.expected.expected_response ??= row.expected_response;
    current.expected.expected_facts ??= row.expected_facts;
    current.expected.expected_retrieved_context ??= row.expected_retrieved_context;
    if (row.engine === undefined) {
      Object.assign(current.labelTags, row.tags);
    } else {
      const { name = DEFAULT_ENGINE, ...output } = row.engine;
      current.engines.set(name, { line: row.line, output, tags: row.tags });
    }
    return [];
  }

  get size(): number {
    return this.cases.size;
  }

  /** The finished cases, in the order their first row appeared. */
  *finish(): Generator<EvalCase> {
    for (const current of this.cases.values()) yield toEvalCase(current);
  }

  private open(requestId: string, row: NormalisedRow): CaseInProgress {
    const caseId = this.caseIds.idOf(requestId);
    const current: CaseInProgress = {
      request_id: requestId,
      request: row.request,
      firstLine: row.line,
      engines: new Map(),
      expected: {},
      expectedLines: {},
      labelTags: {},
    };
    this.cases.set(requestId, current);
    this.caseIdOwners.set(caseId, current);
    return current;
  }

  private caseIdTaken(requestId: string, row: NormalisedRow): InputError[] {
    const caseId = this.caseIds.idOf(requestId);
    const owner = this.caseIdOwners.get(caseId);
    if (owner === undefined) return [];
    return [
      {
        file: this.file,
        line: row.line,
        field: row.request_id === undefined ? 'request' : 'request_id',
        message: `request_id "${requestId}" has the case id "${caseId}", which request_id "${owner.request_id}" on line ${owner.firstLine} already has`,
        fix: `give the requests on lines ${owner.firstLine} and ${row.line} distinct request_ids${this.caseIds.fix}`,
      },
    ];
  }

  private conflicts(current: CaseInProgress, row: NormalisedRow): InputError[] {
    const problems: [field: string, message: string, fix: string][] = [];
    if (current.request !== row.request) {
      problems.push([
        'request',
        `request_id "${current.request_id}" has a different request on line ${current.firstLine}`,
        'give each request its own request_id, and the same text on every row of one request',
      ]);
    }
    if (row.engine !== undefined) {
      const name = row.engine.name ?? DEFAULT_ENGINE;
      const earlier = current.engines.get(name);
      if (earlier !== undefined) {
        problems.push([
          'engine',
          `duplicate row: request "${current.request_id}" already has a row for engine "${name}" on line ${earlier.line}`,
          'give one row per request and engine; name the engine of each row (engine, system or run) when they come from different systems',
        ]);
      }
    }
    for (const field of EXPECTED_FIELDS) {
      const earlier = current.expected[field];
      const value = row[field];
      if (earlier !== undefined && value !== undefined && !isDeepStrictEqual(earlier, value)) {
        problems.push([
          field,
          `disagrees with the ${field} given for the same request on line ${current.expectedLines[field] ?? 0}`,
          'give the same labels on every row of a request, or on one row only',
        ]);
      }
    }
    if (row.engine === undefined) {
      for (const [key, value] of Object.entries(row.tags)) {
        if (hasOwnKey(current.labelTags, key) && !isDeepStrictEqual(current.labelTags[key], value)) {
          problems.push([
            `tags.${key}`,
            `disagrees with the ${key} given on another label row of the same request`,
            'give the same value on every label row of a request',
          ]);
        }
      }
    }
    return problems.map(([field, message, fix]) => ({ file: this.file, line: row.line, field, message, fix }));
  }
}

function toEvalCase(current: CaseInProgress): EvalCase {
  const entries = [...current.engines];
  const { caseTags, engineTags } = splitTags(
    entries.map(([, engine]) => engine.tags),
    current.labelTags,
  );
  const engines: Record<string, EngineOutput> = {};
  entries.forEach(([name, engine], index) => {
    engines[name] = { ...engine.output, tags: engineTags[index] ?? {} };
  });
  return withoutUndefined({
    request_id: current.request_id,
    request: current.request,
    engines,
    ...current.expected,
    tags: caseTags,
  });
}
