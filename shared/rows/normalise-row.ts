import { isDeepStrictEqual } from 'node:util';
import type { ExpectedDocument, HumanVerdict, RetrievedChunk, Tags } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { checkedErrors, checkedValue, type Checked } from './checked.js';
import { conventionForName, describeNames, type RowField } from './conventions.js';
import { toExpectedDocuments, toRetrievedChunks, withoutUndefined, type ListSource } from './documents.js';
import type { SourceRow } from '../readers/reader-event.js';
import { rowSchema, type RowInput } from './row-schema.js';
import { issueToInputError } from './zod-issues.js';
import { hasOwnKey, RESERVED_KEY, setOwnKey } from './own-keys.js';

/** One row in the normalised model, before rows are grouped into cases. */
export interface NormalisedRow {
  line: number;
  request_id?: string;
  request: string;
  /** Set when the row names an engine or carries an engine's output; absent for a row of labels only. */
  engine?: { name?: string; retrieved_context: RetrievedChunk[]; response?: string; human_verdicts?: Record<string, HumanVerdict> };
  expected_response?: string;
  expected_facts?: string[];
  expected_retrieved_context?: ExpectedDocument[];
  /** The row's `tags` object merged with its unknown fields. */
  tags: Tags;
}

/** A row with many bad fields would otherwise bury the other rows' errors. */
const MOST_ISSUES_PER_ROW = 5;

interface MappedFields {
  canonical: Partial<Record<RowField, unknown>>;
  names: Map<RowField, string>;
  unknown: Record<string, unknown>;
  errors: InputError[];
}

export function normaliseRow(file: string, row: SourceRow): Checked<NormalisedRow> {
  const mapped = mapFields(file, row);
  if (mapped.errors.length > 0) return checkedErrors(mapped.errors);
  if (mapped.canonical.request === undefined) {
    return checkedErrors([
      {
        file,
        line: row.line,
        message: 'the row has no request: it matches none of the known dataset conventions',
        fix: `name the query with one of: ${describeNames('request')}`,
      },
    ]);
  }
  const parsed = rowSchema.safeParse(mapped.canonical);
  if (!parsed.success) {
    const context = { file, line: row.line, input: mapped.canonical, names: mapped.names };
    const { issues } = parsed.error;
    const errors = issues.slice(0, MOST_ISSUES_PER_ROW).map((issue) => issueToInputError(issue, context));
    if (issues.length > MOST_ISSUES_PER_ROW) {
      const more = issues.length - MOST_ISSUES_PER_ROW;
      errors.push({
        file,
        line: row.line,
        message: `and ${more} more ${more === 1 ? 'problem' : 'problems'} in this row`,
        fix: 'fix the problems above and validate again',
      });
    }
    return checkedErrors(errors);
  }
  return buildRow(file, row.line, parsed.data, mapped);
}

function mapFields(file: string, row: SourceRow): MappedFields {
  const mapped: MappedFields = { canonical: {}, names: new Map(), unknown: {}, errors: [] };
  for (const [name, value] of Object.entries(row.fields)) {
    const convention = conventionForName(name);
    if (convention === undefined) {
      setOwnKey(mapped.unknown, name, value);
      continue;
    }
    // Exports write a missing value as null; it says nothing, so it is not an error.
    if (value === null || value === undefined) continue;
    const field = convention.field;
    const earlierName = mapped.names.get(field);
    if (earlierName !== undefined && !isDeepStrictEqual(mapped.canonical[field], value)) {
      mapped.errors.push({
        file,
        line: row.line,
        field: name,
        message: `"${earlierName}" and "${name}" both give the ${field} and disagree`,
        fix: 'keep one of the two fields',
      });
      continue;
    }
    mapped.canonical[field] = value;
    mapped.names.set(field, name);
  }
  return mapped;
}

function buildRow(file: string, line: number, input: RowInput, mapped: MappedFields): Checked<NormalisedRow> {
  const errors: InputError[] = [];
  let retrieved: RetrievedChunk[] | undefined;
  if (input.retrieved_context !== undefined || input.retrieved_context_ids !== undefined) {
    const checked = toRetrievedChunks(
      input.retrieved_context ?? [],
      input.retrieved_context_ids,
      listSource(file, line, mapped, 'retrieved_context', 'retrieved_context_ids'),
    );
    if (checked.ok) retrieved = checked.value;
    else errors.push(...checked.error);
  }
  let expectedDocuments: ExpectedDocument[] | undefined;
  if (input.expected_retrieved_context !== undefined || input.expected_context_ids !== undefined) {
    const checked = toExpectedDocuments(
      input.expected_retrieved_context ?? [],
      input.expected_context_ids,
      listSource(file, line, mapped, 'expected_retrieved_context', 'expected_context_ids'),
    );
    if (checked.ok) expectedDocuments = checked.value;
    else errors.push(...checked.error);
  }
  // Several reference answers (RAGAS ground_truths) are kept whole, one per line.
  const joined = input.expected_responses?.join('\n');
  if (input.expected_response !== undefined && joined !== undefined && joined !== input.expected_response) {
    errors.push({
      file,
      line,
      field: nameIn(mapped, 'expected_responses'),
      message: `disagrees with ${nameIn(mapped, 'expected_response')}`,
      fix: 'give the reference answer in one field only',
    });
  }
  if (input.engine === RESERVED_KEY) {
    errors.push({
      file,
      line,
      field: nameIn(mapped, 'engine'),
      message: `the engine name "${RESERVED_KEY}" cannot be used: engines are keys of the case`,
      fix: 'give the engine another name',
    });
  }
  const tags = mergeTags(file, line, input.tags ?? {}, mapped.unknown, errors);
  const hasEngine = input.engine !== undefined || input.response !== undefined || retrieved !== undefined;
  const humanVerdicts = ownVerdicts(input.human_verdicts);
  if (humanVerdicts !== undefined && !hasEngine) {
    errors.push({
      file,
      line,
      field: nameIn(mapped, 'human_verdicts'),
      message:
        "human verdicts judge an engine's response, and this row has none: it is a label row (no response, retrieved list or engine name)",
      fix: "put human_verdicts on the row that carries the response they judge (the engine's row), not on a row of labels only",
    });
  }
  if (errors.length > 0) return checkedErrors(errors);

  return checkedValue(
    withoutUndefined<NormalisedRow>({
      line,
      request_id: input.request_id,
      request: input.request,
      engine: hasEngine
        ? withoutUndefined({
            name: input.engine,
            retrieved_context: retrieved ?? [],
            response: input.response,
            human_verdicts: humanVerdicts,
          })
        : undefined,
      expected_response: input.expected_response ?? joined,
      expected_facts: input.expected_facts,
      expected_retrieved_context: expectedDocuments,
      tags,
    }),
  );
}

/** The row's verdicts in an object of their own, keys defined rather than assigned (own-keys.ts); none when the object is empty. */
function ownVerdicts(verdicts: RowInput['human_verdicts']): Record<string, HumanVerdict> | undefined {
  if (verdicts === undefined) return undefined;
  const own: Record<string, HumanVerdict> = {};
  for (const [judge, verdict] of Object.entries(verdicts)) setOwnKey(own, judge, verdict);
  return Object.keys(own).length === 0 ? undefined : own;
}

/** The field's name as the row wrote it. */
function nameIn(mapped: MappedFields, field: RowField): string {
  return mapped.names.get(field) ?? field;
}

function listSource(file: string, line: number, mapped: MappedFields, list: RowField, ids: RowField): ListSource {
  return { file, line, listName: nameIn(mapped, list), idsName: nameIn(mapped, ids) };
}

/** Unknown fields become tags beside the row's own `tags`; the two must not disagree. */
function mergeTags(file: string, line: number, tags: Tags, unknown: Record<string, unknown>, errors: InputError[]): Tags {
  const merged: Tags = { ...tags };
  for (const [key, value] of Object.entries(unknown)) {
    if (hasOwnKey(merged, key) && !isDeepStrictEqual(merged[key], value)) {
      errors.push({
        file,
        line,
        field: key,
        message: `the field "${key}" disagrees with tags.${key}`,
        fix: `give ${key} either as a field or inside tags, not both`,
      });
      continue;
    }
    merged[key] = value;
  }
  return merged;
}
