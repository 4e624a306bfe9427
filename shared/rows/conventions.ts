/**
 * The field names assay accepts for each part of a row, and where each comes
 * from. Conventions are not exclusive: a row may mix names from several (a
 * Spring AI row with Databricks labels, say), as long as no two names for the
 * same field disagree. A name not listed here is kept as a tag.
 */

/** Canonical fields a row can fill, named as in the Databricks convention where it has one. */
export type RowField =
  | 'request_id'
  | 'request'
  | 'engine'
  | 'response'
  | 'retrieved_context'
  | 'retrieved_context_ids'
  | 'expected_response'
  | 'expected_responses'
  | 'expected_facts'
  | 'expected_retrieved_context'
  | 'expected_context_ids'
  | 'human_verdicts'
  | 'tags';

export type ConventionName = 'assay' | 'Databricks/MLflow' | 'RAGAS' | 'DeepEval' | 'Spring AI';

export interface FieldConvention {
  field: RowField;
  names: readonly { name: string; convention: ConventionName }[];
  /** A CSV cell for this field holds text as is, or JSON (or a Python list of strings). */
  cell: 'text' | 'structured';
  /** What the field must hold, phrased to follow "expected". */
  expects: string;
  /** How to fix a wrong value. */
  fix: string;
}

const CHUNK_LIST = 'a list of strings or of {doc_uri, content} objects';

export const FIELD_CONVENTIONS: readonly FieldConvention[] = [
  {
    field: 'request_id',
    names: [{ name: 'request_id', convention: 'Databricks/MLflow' }],
    cell: 'text',
    expects: 'a non-empty string',
    fix: 'give request_id as a string, or drop it to group rows by request text',
  },
  {
    field: 'request',
    names: [
      { name: 'request', convention: 'Databricks/MLflow' },
      { name: 'question', convention: 'RAGAS' },
      { name: 'user_input', convention: 'RAGAS' },
      { name: 'input', convention: 'DeepEval' },
      { name: 'userText', convention: 'Spring AI' },
    ],
    cell: 'text',
    expects: 'a string, a chat object {"messages": [{"role": "user", "content": "..."}]} or {"query": "..."}',
    fix: 'give the request as the query text',
  },
  {
    field: 'engine',
    names: [
      { name: 'engine', convention: 'assay' },
      { name: 'system', convention: 'assay' },
      { name: 'run', convention: 'assay' },
    ],
    cell: 'text',
    expects: 'a non-empty string',
    fix: 'name the engine (retriever or system) that produced this row',
  },
  {
    field: 'response',
    names: [
      { name: 'response', convention: 'Databricks/MLflow' },
      { name: 'answer', convention: 'RAGAS' },
      { name: 'actual_output', convention: 'DeepEval' },
      { name: 'responseContent', convention: 'Spring AI' },
    ],
    cell: 'text',
    expects: 'a string or a chat completion {"choices": [{"message": {"content": "..."}}]}',
    fix: "give the engine's answer as text",
  },
  {
    field: 'retrieved_context',
    names: [
      { name: 'retrieved_context', convention: 'Databricks/MLflow' },
      { name: 'contexts', convention: 'RAGAS' },
      { name: 'retrieved_contexts', convention: 'RAGAS' },
      { name: 'retrieval_context', convention: 'DeepEval' },
      { name: 'dataList', convention: 'Spring AI' },
    ],
    cell: 'structured',
    expects: CHUNK_LIST,
    fix: 'give the retrieved chunks in rank order as a list of texts or of {doc_uri, content} objects',
  },
  {
    field: 'retrieved_context_ids',
    names: [{ name: 'retrieved_context_ids', convention: 'RAGAS' }],
    cell: 'structured',
    expects: 'a list of document id strings, one per retrieved context',
    fix: 'give one id string per retrieved context, in the same order',
  },
  {
    field: 'expected_response',
    names: [
      { name: 'expected_response', convention: 'Databricks/MLflow' },
      { name: 'ground_truth', convention: 'RAGAS' },
      { name: 'reference', convention: 'RAGAS' },
      { name: 'expected_output', convention: 'DeepEval' },
    ],
    cell: 'text',
    expects: 'a string',
    fix: 'give the reference answer as text',
  },
  {
    field: 'expected_responses',
    names: [{ name: 'ground_truths', convention: 'RAGAS' }],
    cell: 'structured',
    expects: 'a list of strings',
    fix: 'give the reference answers as a list of strings, or one string as ground_truth',
  },
  {
    field: 'expected_facts',
    names: [{ name: 'expected_facts', convention: 'Databricks/MLflow' }],
    cell: 'structured',
    expects: 'a list of strings',
    fix: 'give each fact the answer must state as a string in a list',
  },
  {
    field: 'expected_retrieved_context',
    names: [
      { name: 'expected_retrieved_context', convention: 'Databricks/MLflow' },
      { name: 'reference_contexts', convention: 'RAGAS' },
      { name: 'context', convention: 'DeepEval' },
    ],
    cell: 'structured',
    expects: 'a list of strings or of {doc_uri, content, grade} objects',
    fix: 'give the relevant documents as a list of texts or of {doc_uri, grade} objects',
  },
  {
    field: 'expected_context_ids',
    names: [{ name: 'reference_context_ids', convention: 'RAGAS' }],
    cell: 'structured',
    expects: 'a list of document id strings, one per reference context',
    fix: 'give one id string per reference context, in the same order',
  },
  {
    field: 'human_verdicts',
    names: [{ name: 'human_verdicts', convention: 'assay' }],
    cell: 'structured',
    expects: 'an object {"<judge id>": verdict}, each verdict "yes", "no", true, false or a number',
    fix: 'give a person\'s verdicts on this response as an object keyed by judge id, e.g. {"correctness": "yes", "correctness_score": 0.8}',
  },
  {
    field: 'tags',
    names: [{ name: 'tags', convention: 'Databricks/MLflow' }],
    cell: 'structured',
    expects: 'an object',
    fix: 'give tags as an object {"name": value}, or as separate columns',
  },
];

const BY_NAME = new Map(FIELD_CONVENTIONS.flatMap((convention) => convention.names.map(({ name }) => [name, convention] as const)));
const BY_FIELD = new Map(FIELD_CONVENTIONS.map((convention) => [convention.field, convention] as const));

/** The convention entry for a column or key name, if assay knows it. */
export function conventionForName(name: string): FieldConvention | undefined {
  return BY_NAME.get(name);
}

export function conventionForField(field: RowField): FieldConvention {
  const convention = BY_FIELD.get(field);
  if (convention === undefined) throw new Error(`no convention entry for field ${field}`);
  return convention;
}

/** "request (Databricks/MLflow), question, user_input (RAGAS), ..." for error messages. */
export function describeNames(field: RowField): string {
  const groups = new Map<ConventionName, string[]>();
  for (const { name, convention } of conventionForField(field).names) groups.set(convention, [...(groups.get(convention) ?? []), name]);
  return [...groups].map(([convention, names]) => `${names.join(', ')} (${convention})`).join(', ');
}
