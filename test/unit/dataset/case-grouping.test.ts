import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestIdFor } from '../../../shared/rows/content-ids.js';
import { DEFAULT_ENGINE } from '../../../shared/schema/eval-case.js';
import { engineOutput, jsonLines, loadAll, textChunk } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

describe('grouping rows into cases', () => {
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

  it('puts the rows of several engines for one request in one case, wherever they are in the file', async () => {
    // Prepare
    const rows = [
      { question: 'q1', engine: 'bm25', contexts: ['x'] },
      { question: 'q2', system: 'bm25', contexts: ['y'] },
      { question: 'q1', run: 'dense', contexts: ['x'] },
    ];

    // Act
    const { cases, counts } = await loadRows(rows);

    // Assess
    expect(cases.map((evalCase) => [evalCase.request_id, Object.keys(evalCase.engines)])).toEqual([
      [requestIdFor('q1'), ['bm25', 'dense']],
      [requestIdFor('q2'), ['bm25']],
    ]);
    expect(cases[0]?.engines.dense?.retrieved_context).toEqual([textChunk('x', 1)]);
    expect(counts).toMatchObject({ rows: 3, cases: 2, engines: { bm25: 2, dense: 1 } });
  });

  it('groups by request_id when given', async () => {
    // Prepare
    const rows = [
      { request_id: 7, request: 'same text', engine: 'a' },
      { request_id: '8', request: 'same text', engine: 'a' },
    ];

    // Act
    const { cases, errors } = await loadRows(rows);

    // Assess
    expect(errors).toEqual([]);
    expect(cases.map((evalCase) => evalCase.request_id)).toEqual(['7', '8']);
  });

  it('rejects a second row for the same request and engine, pointing at the first', async () => {
    // Prepare
    const rows = [
      { question: 'q', answer: 'first' },
      { question: 'q', answer: 'second' },
    ];

    // Act
    const { cases, errors } = await loadRows(rows);

    // Assess
    expect(errors).toEqual([
      expect.objectContaining({ line: 2, field: 'engine', message: expect.stringMatching(/duplicate row: .* engine "default" on line 1/) }),
    ]);
    expect(cases[0]?.engines[DEFAULT_ENGINE]?.response).toBe('first');
  });

  it.each([
    ['expected_response', { expected_response: 'A' }, { expected_response: 'B' }],
    ['expected_facts', { expected_facts: ['x'] }, { expected_facts: ['y'] }],
    ['expected_retrieved_context', { reference_contexts: ['x'] }, { reference_contexts: ['x', 'y'] }],
  ])('rejects a row whose %s disagrees with an earlier row of the case', async (field, first, second) => {
    // Prepare
    const rows = [
      { request: 'q', engine: 'a', ...first },
      { request: 'q', engine: 'b', ...second },
    ];

    // Act
    const { cases, errors } = await loadRows(rows);

    // Assess
    expect(errors).toEqual([expect.objectContaining({ line: 2, field, message: expect.stringContaining('line 1') })]);
    expect(Object.keys(cases[0]?.engines ?? {})).toEqual(['a']);
  });

  it('rejects a request_id reused for another request text', async () => {
    // Act
    const { errors } = await loadRows([
      { request_id: 'r', request: 'one' },
      { request_id: 'r', request: 'two' },
    ]);

    // Assess
    expect(errors.map((error) => error.field)).toEqual(['request']);
  });

  it('merges a label-only row into the case of the engines, without adding an engine', async () => {
    // Prepare
    const rows = [
      { request: 'q', engine: 'a', response: 'x' },
      { request: 'q', expected_response: 'X', suite: 'smoke' },
    ];

    // Act
    const { cases, counts } = await loadRows(rows);

    // Assess
    expect(cases).toEqual([
      {
        request_id: requestIdFor('q'),
        request: 'q',
        engines: { a: engineOutput({ response: 'x' }) },
        expected_response: 'X',
        tags: { suite: 'smoke' },
      },
    ]);
    // An expected response is no relevance label: the case is counted apart, not as labelled
    expect(counts).toMatchObject({ labelled_cases: 0, expected_response_cases: 1 });
  });

  it('keeps tags shared by every engine row on the case and the others on their engine', async () => {
    // Prepare
    const rows = [
      { request: 'q', engine: 'a', split: 'dev', k: 5, only_a: true },
      { request: 'q', engine: 'b', split: 'dev', k: 10 },
    ];

    // Act
    const { cases } = await loadRows(rows);

    // Assess
    expect(cases[0]?.tags).toEqual({ split: 'dev' });
    expect(cases[0]?.engines.a?.tags).toEqual({ k: 5, only_a: true });
    expect(cases[0]?.engines.b?.tags).toEqual({ k: 10 });
  });
});
