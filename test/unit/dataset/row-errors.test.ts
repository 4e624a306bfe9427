import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE } from '../../../shared/schema/eval-case.js';
import { jsonLines, loadAll } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

describe('row validation', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  async function loadRows(rows: readonly object[]) {
    return loadAll(await folder.write('rows.jsonl', jsonLines(rows)));
  }

  it('names the field of a wrong type, says what was expected and how to fix it', async () => {
    // Prepare
    const rows = [{ request: 'q', retrieved_context: [{ doc_uri: 'a' }, { doc_uri: 'b' }, { doc_uri: 7, content: 'c' }] }];

    // Act
    const { errors, cases } = await loadRows(rows);

    // Assess
    expect(cases).toEqual([]);
    expect(errors).toEqual([
      {
        file: expect.any(String),
        line: 1,
        field: 'retrieved_context[2].doc_uri',
        message: 'expected a string, got a number (7)',
        fix: 'give each retrieved chunk a doc_uri string or drop the field to use the content hash',
      },
    ]);
  });

  it.each([
    [{ question: 42 }, 'question', /^expected a string, a chat object .*got a number \(42\)$/],
    [{ question: 'q', contexts: 'one text' }, 'contexts', /^expected a list of strings or of \{doc_uri, content\} objects, got a string$/],
    [
      { input: 'q', retrieval_context: ['ok', 3] },
      'retrieval_context[1]',
      /^expected a string or an object with doc_uri and content, got a number \(3\)$/,
    ],
    [
      { request: 'q', expected_retrieved_context: [{ doc_uri: 'a', grade: 1.5 }] },
      'expected_retrieved_context[0].grade',
      /^expected an integer/,
    ],
    [
      // A grade's counts grow to the grade: 999999999 took 2.6 GB and crashed the process.
      { request: 'q', expected_retrieved_context: [{ doc_uri: 'a', grade: 999999999 }] },
      'expected_retrieved_context[0].grade',
      /^expected a number <= 10000, got a number \(999999999\)$/,
    ],
    [{ request: 'q', retrieved_context: [{ score: 1 }] }, 'retrieved_context[0]', /^a chunk needs a doc_uri or a content$/],
    [
      { request: 'q', retrieved_context: [{ doc_uri: 'a', rank: 0 }] },
      'retrieved_context[0].rank',
      /^expected a number > 0, got a number \(0\)$/,
    ],
    [{ request: 'q', tags: ['x'] }, 'tags', /^expected an object, got an array$/],
    [{ request: 'q', engine: '' }, 'engine', /^must not be empty$/],
    [{ user_input: '' }, 'user_input', /^must not be empty$/],
  ])('reports %j at field %s', async (row, field, message) => {
    // Act
    const { errors } = await loadRows([row]);

    // Assess
    expect(errors).toHaveLength(1);
    expect(errors[0]?.field).toBe(field);
    expect(errors[0]?.message).toMatch(message);
    expect(errors[0]?.fix.length).toBeGreaterThan(10);
  });

  it('lists five problems of a row and says how many more there are', async () => {
    // Prepare
    const row = { request: 'q', retrieved_context: [1, 2, 3, 4, 5, 6, 7] };

    // Act
    const { errors } = await loadRows([row]);

    // Assess
    expect(errors.map((error) => error.field ?? error.message)).toEqual([
      'retrieved_context[0]',
      'retrieved_context[1]',
      'retrieved_context[2]',
      'retrieved_context[3]',
      'retrieved_context[4]',
      'and 2 more problems in this row',
    ]);
  });

  it('lists the accepted request names for a row that matches no convention', async () => {
    // Act
    const { errors } = await loadRows([{ prompt: 'q', output: 'a' }]);

    // Assess
    expect(errors[0]?.message).toMatch(/matches none of the known dataset conventions/);
    expect(errors[0]?.fix).toBe(
      'name the query with one of: request (Databricks/MLflow), question, user_input (RAGAS), input (DeepEval), userText (Spring AI)',
    );
  });

  it.each([
    ['two names of one field that disagree', { question: 'a', user_input: 'b' }, 'user_input'],
    ['ids that do not match the contexts', { question: 'q', contexts: ['a', 'b'], retrieved_context_ids: ['d1'] }, 'retrieved_context_ids'],
    [
      'a rank on some chunks only',
      { request: 'q', retrieved_context: [{ doc_uri: 'a', rank: 1 }, { doc_uri: 'b' }] },
      'retrieved_context[1].rank',
    ],
    [
      'a rank given twice',
      {
        request: 'q',
        retrieved_context: [
          { doc_uri: 'a', rank: 1 },
          { doc_uri: 'b', rank: 1 },
        ],
      },
      'retrieved_context[1].rank',
    ],
    ['a field that disagrees with the same tag', { request: 'q', split: 'dev', tags: { split: 'test' } }, 'split'],
  ])('reports %s', async (_described, row, field) => {
    // Act
    const { errors, cases } = await loadRows([row]);

    // Assess
    expect(cases).toEqual([]);
    expect(errors.map((error) => error.field)).toEqual([field]);
  });

  it('keeps unknown fields as tags, whatever their type, next to the tags object', async () => {
    // Prepare
    const row = { request: 'q', response: 'a', latency_ms: 120, trace: { spans: 3 }, notes: null, tags: { split: 'dev' } };

    // Act
    const { cases, errors } = await loadRows([row]);

    // Assess
    expect(errors).toEqual([]);
    expect(cases[0]?.tags).toEqual({ split: 'dev', latency_ms: 120, trace: { spans: 3 }, notes: null });
    expect(cases[0]?.engines[DEFAULT_ENGINE]?.tags).toEqual({});
  });

  it('keeps unknown keys of a chunk in its metadata and accepts numbers written as text', async () => {
    // Prepare
    const row = { request: 'q', retrieved_context: [{ doc_uri: 'a', score: '0.75', rank: '1', page: 4, metadata: { source: 'x.pdf' } }] };

    // Act
    const { cases } = await loadRows([row]);

    // Assess
    expect(cases[0]?.engines[DEFAULT_ENGINE]?.retrieved_context).toEqual([
      { doc_uri: 'a', score: 0.75, rank: 1, metadata: { source: 'x.pdf', page: 4 } },
    ]);
  });

  it('reports a CSV list cell that is neither JSON nor a Python list of strings, naming the column', async () => {
    // Prepare
    const file = await folder.write(
      'rows.csv',
      'question,contexts,reference_contexts\nq1,"[\'a\', None]",\nq2,just text,\nq3,"[\'ok\']","[""fine""]"\n',
    );

    // Act
    const { errors, cases } = await loadAll(file);

    // Assess
    expect(errors.map((error) => [error.line, error.field])).toEqual([
      [2, 'contexts'],
      [3, 'contexts'],
    ]);
    expect(errors[0]?.message).toMatch(/neither JSON nor a Python list of strings/);
    expect(errors[0]?.fix).toMatch(/Python list of quoted strings/);
    expect(cases.map((evalCase) => evalCase.request)).toEqual(['q3']);
  });
});
