import { isDeepStrictEqual } from 'node:util';
import type { ExpectedDocument, HumanVerdict, RetrievedChunk, Tags } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { checkedErrors, checkedValue, type Checked } from './checked.js';
import { conventionForName, describeNames, type RowField } from './conventions.js';
import { toExpectedDocuments, toRetrievedChunks, withoutUndefined, type ListSource } from './documents.js';
import { isPlainObject, type SourceRow } from '../readers/reader-event.js';
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
        fix: isPlainObject(row.fields.inputs)
          ? `name the query in inputs (an MLflow 3 record) with one of: query, messages, ${describeNames('request')}; or give inputs one string`
          : `name the query with one of: ${describeNames('request')}`,
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
  for (const [name, value, canonicalName = name] of mlflowRecordFields(row.fields)) {
    const convention = conventionForName(canonicalName);
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

/** The names MLflow 3 gives its query in `inputs`, the arguments of the app it evaluates, besides assay's request names. */
const MLFLOW_QUERY_KEYS = ['query', 'messages'];

/** A field of a row: the name it is known by in errors and tags, its value, and the name it is read as when that differs. */
type RowEntry = [name: string, value: unknown, canonicalName?: string];

/**
 * A row's fields, with an MLflow 3 evaluation record's nested ones read as
 * the fields they are (`inputs`, `outputs` and `expectations` of
 * `mlflow.genai.evaluate` data; docs/datasets.md#field-names): `inputs`
 * gives the request (its request-named key, its chat messages, or its one
 * string), `outputs` the response, each key of `expectations` the field it
 * names (`expected_response`, `expected_facts`, `expected_retrieved_context`;
 * others, such as `guidelines`, stay tags), and `dataset_record_id` the
 * request id. A nested field keeps its path as its name, so an error or a tag
 * names it as the row wrote it (`expectations.expected_facts`). Any other
 * row, one that names its request at the top level included, is its fields
 * as they are.
 */
function mlflowRecordFields(fields: Readonly<Record<string, unknown>>): RowEntry[] {
  const entries = Object.entries(fields);
  // A row that names its request at the top is of another convention: an `inputs` object there is one of its tags.
  if (!isPlainObject(fields.inputs) || entries.some(([name]) => conventionForName(name)?.field === 'request')) return entries;
  const expanded: RowEntry[] = [];
  for (const [name, value] of entries) {
    if (name === 'inputs' && isPlainObject(value)) expanded.push(...inputsFields(value));
    else if (name === 'outputs') expanded.push([name, outputText(value), 'response']);
    else if (name === 'expectations' && isPlainObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        const field = conventionForName(key)?.field;
        // Only the fields labels go in: a request or an engine's output named here would be a label of something else.
        expanded.push(
          field !== undefined && EXPECTATION_FIELDS.has(field)
            ? [`${name}.${key}`, inner, key]
            : [`${name}.${key}`, inner, `${name}.${key}`],
        );
      }
    } else if (name === 'dataset_record_id') expanded.push([name, value, 'request_id']);
    else expanded.push([name, value]);
  }
  return expanded;
}

/** What MLflow 3 `expectations` may give: the labels of a case. */
const EXPECTATION_FIELDS: ReadonlySet<RowField> = new Set([
  'expected_response',
  'expected_responses',
  'expected_facts',
  'expected_retrieved_context',
  'expected_context_ids',
]);

/** The request of MLflow 3 `inputs`: a key named as a request (or its chat `messages`), else its only string value; the rest stay tags. */
function inputsFields(inputs: Record<string, unknown>): RowEntry[] {
  const keys = Object.keys(inputs);
  const requestKey =
    keys.find((key) => conventionForName(key)?.field === 'request' || MLFLOW_QUERY_KEYS.includes(key)) ??
    (keys.length === 1 && typeof inputs[keys[0] as string] === 'string' ? keys[0] : undefined);
  return keys.map((key): RowEntry => {
    const value = inputs[key];
    if (key !== requestKey) return [`inputs.${key}`, value, `inputs.${key}`];
    // A chat list is read as the request's {messages} form.
    return [`inputs.${key}`, key === 'messages' ? { messages: value } : value, 'request'];
  });
}

/** The response of MLflow 3 `outputs`: a string, an OpenAI-style completion, or an object whose one string value, or `response` or `answer`, is the text. */
function outputText(outputs: unknown): unknown {
  if (!isPlainObject(outputs) || Array.isArray(outputs.choices)) return outputs;
  for (const key of ['response', 'answer', 'content', 'output']) if (typeof outputs[key] === 'string') return outputs[key];
  const values = Object.values(outputs);
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : outputs;
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
