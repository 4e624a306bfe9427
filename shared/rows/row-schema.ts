import { z } from 'zod';
import { isPlainObject } from '../readers/reader-event.js';
import { MAX_GRADE } from '../schema/relevance-grade.js';

/**
 * Lenient zod schemas for one row after its field names were mapped to the
 * canonical ones (see conventions). They accept every shape the conventions
 * allow and leave the choice between aliases (doc_uri or id, content or text)
 * to the normaliser, so an issue's path names the key the user wrote.
 */

/** Null means "no value" in JSON exports (pandas writes NaN as null): drop such keys. */
function withoutNulls(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null));
}

/** CSV cells and some exports carry numbers as text; "0.82" means 0.82. */
function numberFromText(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}

const score = z.preprocess(numberFromText, z.number().finite()).optional();

const documentKeys = {
  doc_uri: z.string().min(1).optional(),
  doc_id: z.string().min(1).optional(),
  /** Spring AI Document id. */
  id: z.string().min(1).optional(),
  content: z.string().optional(),
  text: z.string().optional(),
  /** LangChain Document text. */
  page_content: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
};

const DOCUMENT_KEYS = ['doc_uri', 'doc_id', 'id', 'content', 'text', 'page_content'] as const;

function namesADocument(chunk: Record<string, unknown>): boolean {
  return DOCUMENT_KEYS.some((key) => chunk[key] !== undefined);
}

const NEEDS_ID_OR_TEXT = { message: 'a chunk needs a doc_uri or a content', path: [] };

/** A chunk given as bare text is a chunk with only content. */
function chunkFromText(value: unknown): unknown {
  return typeof value === 'string' ? { content: value } : withoutNulls(value);
}

export const retrievedChunkInputSchema = z.preprocess(
  chunkFromText,
  z
    .looseObject({ ...documentKeys, score, rank: z.preprocess(numberFromText, z.number().int().positive()).optional() })
    .refine(namesADocument, NEEDS_ID_OR_TEXT),
);
export type RetrievedChunkInput = z.infer<typeof retrievedChunkInputSchema>;

export const expectedDocumentInputSchema = z.preprocess(
  chunkFromText,
  z
    .looseObject({ ...documentKeys, grade: z.preprocess(numberFromText, z.number().int().max(MAX_GRADE)).optional() })
    .refine(namesADocument, NEEDS_ID_OR_TEXT),
);
export type ExpectedDocumentInput = z.infer<typeof expectedDocumentInputSchema>;

/** Chat form: the request is the last user message. */
function requestText(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  if (Array.isArray(value.messages)) {
    const users = value.messages.filter((message) => isPlainObject(message) && message.role === 'user');
    const last: unknown = users.at(-1);
    return isPlainObject(last) && typeof last.content === 'string' ? last.content : value;
  }
  return typeof value.query === 'string' ? value.query : value;
}

/** OpenAI-style completion: the response is the first choice's message. */
function responseText(value: unknown): unknown {
  if (!isPlainObject(value) || !Array.isArray(value.choices)) return value;
  const first: unknown = value.choices[0];
  if (!isPlainObject(first) || !isPlainObject(first.message)) return value;
  return typeof first.message.content === 'string' ? first.message.content : value;
}

/** Integer ids are common in exported datasets; they name the same request as their text. */
function idFromNumber(value: unknown): unknown {
  return typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
}

/** How judges are named (custom-judge.ts, judge-definition.ts): what keys a row's human verdicts. */
export const JUDGE_ID = /^[a-z][a-z0-9_]*$/;

/**
 * A person's verdict on the row's response for one judge: "yes" or "no",
 * true or false (read as yes and no), or a number on a graded judge's scale
 * (written as text too, as CSV exports write numbers).
 */
export const humanVerdictInputSchema = z.preprocess(
  numberFromText,
  z.union([z.enum(['yes', 'no']), z.boolean().transform((value): 'yes' | 'no' => (value ? 'yes' : 'no')), z.number().finite()]),
);

/** Judge id → verdict; a null verdict (an export's missing value) is no verdict. */
export const humanVerdictsInputSchema = z.preprocess(withoutNulls, z.record(z.string().regex(JUDGE_ID), humanVerdictInputSchema));

export const rowSchema = z.object({
  request_id: z.preprocess(idFromNumber, z.string().min(1)).optional(),
  request: z.preprocess(requestText, z.string().min(1)),
  engine: z.string().min(1).optional(),
  response: z.preprocess(responseText, z.string()).optional(),
  retrieved_context: z.array(retrievedChunkInputSchema).optional(),
  retrieved_context_ids: z.array(z.string().min(1)).optional(),
  expected_response: z.string().optional(),
  expected_responses: z.array(z.string()).optional(),
  expected_facts: z.array(z.string()).optional(),
  expected_retrieved_context: z.array(expectedDocumentInputSchema).optional(),
  expected_context_ids: z.array(z.string().min(1)).optional(),
  human_verdicts: humanVerdictsInputSchema.optional(),
  tags: z.record(z.string(), z.unknown()).optional(),
});
export type RowInput = z.infer<typeof rowSchema>;
