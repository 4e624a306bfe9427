import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestIdFor } from '../../../shared/rows/content-ids.js';
import { DEFAULT_ENGINE, type EvalCase } from '../../../shared/schema/eval-case.js';
import { engineOutput, jsonLines, loadAll, textChunk, textDocument } from './factories.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

describe('dataset conventions', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  async function loadRows(rows: readonly object[]): Promise<EvalCase[]> {
    const { cases, errors } = await loadAll(await folder.write('rows.jsonl', jsonLines(rows)));
    expect(errors).toEqual([]);
    return cases;
  }

  describe('Databricks Agent Evaluation / MLflow', () => {
    it('reads ids, chunks with doc_uri, facts and graded expected documents', async () => {
      // Prepare
      const row = {
        request_id: 'r1',
        request: 'What is MLflow?',
        response: 'An open source platform.',
        retrieved_context: [
          { doc_uri: 'doc/a', content: 'MLflow is a platform.' },
          { doc_uri: 'doc/b', content: 'Other.', score: 0.4 },
        ],
        expected_response: 'An open source ML platform.',
        expected_facts: ['open source', 'ML lifecycle'],
        expected_retrieved_context: [{ doc_uri: 'doc/a', grade: 2 }, { doc_uri: 'doc/c' }],
      };

      // Act
      const cases = await loadRows([row]);

      // Assess
      expect(cases).toEqual([
        {
          request_id: 'r1',
          request: 'What is MLflow?',
          engines: {
            [DEFAULT_ENGINE]: engineOutput({
              retrieved_context: [
                { doc_uri: 'doc/a', content: 'MLflow is a platform.', rank: 1 },
                { doc_uri: 'doc/b', content: 'Other.', score: 0.4, rank: 2 },
              ],
              response: 'An open source platform.',
            }),
          },
          expected_response: 'An open source ML platform.',
          expected_facts: ['open source', 'ML lifecycle'],
          expected_retrieved_context: [{ doc_uri: 'doc/a', grade: 2 }, { doc_uri: 'doc/c' }],
          tags: {},
        },
      ]);
    });

    it('takes the last user message of a chat request, a query object, and a chat completion response', async () => {
      // Prepare
      const rows = [
        {
          request: {
            messages: [
              { role: 'user', content: 'first' },
              { role: 'assistant', content: 'hm' },
              { role: 'user', content: 'second' },
            ],
          },
          response: { choices: [{ message: { role: 'assistant', content: 'answer' } }] },
        },
        { request: { query: 'a query' } },
      ];

      // Act
      const cases = await loadRows(rows);

      // Assess
      expect(cases.map((evalCase) => evalCase.request)).toEqual(['second', 'a query']);
      expect(cases[0]?.engines[DEFAULT_ENGINE]?.response).toBe('answer');
    });

    it('orders chunks by rank when every chunk has one, and never by score', async () => {
      // Prepare
      const rows = [
        {
          request: 'ranked',
          retrieved_context: [
            { doc_uri: 'b', rank: 2 },
            { doc_uri: 'a', rank: 1 },
          ],
        },
        {
          request: 'scored',
          retrieved_context: [
            { doc_uri: 'low', score: 0.1 },
            { doc_uri: 'high', score: 0.9 },
          ],
        },
      ];

      // Act
      const cases = await loadRows(rows);

      // Assess
      expect(cases[0]?.engines[DEFAULT_ENGINE]?.retrieved_context.map((chunk) => chunk.doc_uri)).toEqual(['a', 'b']);
      expect(cases[1]?.engines[DEFAULT_ENGINE]?.retrieved_context).toEqual([
        { doc_uri: 'low', score: 0.1, rank: 1 },
        { doc_uri: 'high', score: 0.9, rank: 2 },
      ]);
    });
  });

  describe('MLflow 3 evaluation records (inputs, outputs, expectations)', () => {
    it('reads the request from inputs, the response from outputs and the labels from expectations, keeping the rest as tags', async () => {
      // Prepare: mlflow.genai.evaluate data, one record as a chat, one with its query under a key of its own
      const rows = [
        {
          dataset_record_id: 'r1',
          inputs: {
            messages: [
              { role: 'system', content: 'be brief' },
              { role: 'user', content: 'How do I rotate a key?' },
            ],
            locale: 'en',
          },
          outputs: { choices: [{ message: { content: 'In the console.' } }] },
          expectations: {
            expected_response: 'Rotate it in the console.',
            expected_facts: ['console'],
            expected_retrieved_context: [{ doc_uri: 'kb/rotate', grade: 2 }],
            guidelines: ['be polite'],
          },
          tags: { team: 'search' },
        },
        { inputs: { q: 'Which limits apply?' }, outputs: { answer: 'Ten keys a user.' } },
        { inputs: { query: 'What is a token?' }, outputs: 'A credential.' },
      ];

      // Act
      const cases = await loadRows(rows);

      // Assess
      const byId = new Map(cases.map((evalCase) => [evalCase.request, evalCase]));
      expect(byId.get('How do I rotate a key?')).toEqual({
        request_id: 'r1',
        request: 'How do I rotate a key?',
        engines: { [DEFAULT_ENGINE]: engineOutput({ response: 'In the console.' }) },
        expected_response: 'Rotate it in the console.',
        expected_facts: ['console'],
        expected_retrieved_context: [{ doc_uri: 'kb/rotate', grade: 2 }],
        tags: { team: 'search', 'inputs.locale': 'en', 'expectations.guidelines': ['be polite'] },
      });
      expect(byId.get('Which limits apply?')?.engines[DEFAULT_ENGINE]?.response).toBe('Ten keys a user.');
      expect(byId.get('What is a token?')?.engines[DEFAULT_ENGINE]?.response).toBe('A credential.');
    });

    it('names the nested field in an error, and says where an MLflow 3 record puts its query', async () => {
      // Prepare
      const file = await folder.write(
        'mlflow.jsonl',
        jsonLines([
          { inputs: { topic: 'keys', locale: 'en' } },
          { inputs: { question: 'q' }, expectations: { expected_retrieved_context: [{ doc_uri: 'd', grade: 1.5 }] } },
        ]),
      );

      // Act
      const { errors } = await loadAll(file);

      // Assess
      expect(errors.map(({ line, field, message, fix }) => ({ line, field, message, fix }))).toEqual([
        {
          line: 1,
          field: undefined,
          message: 'the row has no request: it matches none of the known dataset conventions',
          fix: 'name the query in inputs (an MLflow 3 record) with one of: query, messages, request (Databricks/MLflow), question, user_input (RAGAS), input (DeepEval), userText (Spring AI); or give inputs one string',
        },
        expect.objectContaining({
          line: 2,
          field: 'expectations.expected_retrieved_context[0].grade',
          message: 'expected an integer, got a number (1.5)',
        }),
      ]);
    });

    it('reads a row that is not an MLflow 3 record as before: inputs holding no object, or beside a request at the top', async () => {
      // Prepare: a dotted name is a tag, not the field after its dot
      const rows = [
        { request: 'q', inputs: 'free text', 'x.response': 'kept as a tag' },
        { request: 'r', inputs: { question: 'another question' } },
      ];

      // Act
      const cases = await loadRows(rows);

      // Assess
      expect(cases).toEqual([
        { request_id: requestIdFor('q'), request: 'q', engines: {}, tags: { inputs: 'free text', 'x.response': 'kept as a tag' } },
        { request_id: requestIdFor('r'), request: 'r', engines: {}, tags: { inputs: { question: 'another question' } } },
      ]);
    });
  });

  describe('RAGAS', () => {
    it('reads contexts as text chunks, hashed so ground truth and retrieval share ids', async () => {
      // Prepare
      const row = { question: 'Q?', answer: 'A.', contexts: ['one', 'two'], ground_truth: 'A!', reference_contexts: ['two'] };

      // Act
      const cases = await loadRows([row]);

      // Assess
      expect(cases).toEqual([
        {
          request_id: requestIdFor('Q?'),
          request: 'Q?',
          engines: { [DEFAULT_ENGINE]: engineOutput({ retrieved_context: [textChunk('one', 1), textChunk('two', 2)], response: 'A.' }) },
          expected_response: 'A!',
          expected_retrieved_context: [textDocument('two')],
          tags: {},
        },
      ]);
    });

    it('uses retrieved_context_ids and reference_context_ids as the documents of the aligned texts', async () => {
      // Prepare
      const row = {
        user_input: 'Q?',
        retrieved_contexts: ['one', 'two'],
        retrieved_context_ids: ['d1', 'd2'],
        reference: 'A',
        reference_contexts: ['two'],
        reference_context_ids: ['d2'],
      };

      // Act
      const [evalCase] = await loadRows([row]);

      // Assess
      expect(evalCase?.engines[DEFAULT_ENGINE]?.retrieved_context).toEqual([
        { doc_uri: 'd1', content: 'one', rank: 1 },
        { doc_uri: 'd2', content: 'two', rank: 2 },
      ]);
      expect(evalCase?.expected_retrieved_context).toEqual([{ doc_uri: 'd2', content: 'two' }]);
    });

    it('joins several ground_truths into one expected response', async () => {
      // Act
      const [evalCase] = await loadRows([{ question: 'Q?', ground_truths: ['first answer', 'second answer'] }]);

      // Assess
      expect(evalCase?.expected_response).toBe('first answer\nsecond answer');
      expect(evalCase?.engines).toEqual({});
    });
  });

  describe('DeepEval', () => {
    it('reads retrieval_context as retrieved and context as the ideal contexts', async () => {
      // Prepare
      const row = { input: 'Q?', actual_output: 'A.', retrieval_context: ['r1'], expected_output: 'A!', context: ['ideal'] };

      // Act
      const cases = await loadRows([row]);

      // Assess
      expect(cases).toEqual([
        {
          request_id: requestIdFor('Q?'),
          request: 'Q?',
          engines: { [DEFAULT_ENGINE]: engineOutput({ retrieved_context: [textChunk('r1', 1)], response: 'A.' }) },
          expected_response: 'A!',
          expected_retrieved_context: [textDocument('ideal')],
          tags: {},
        },
      ]);
    });
  });

  describe('Spring AI EvaluationRequest', () => {
    it('reads dataList Documents with their id, text, score and metadata', async () => {
      // Prepare
      const row = {
        userText: 'Q?',
        responseContent: 'A.',
        dataList: [
          { id: 'doc-1', text: 'first', metadata: { source: 'a.pdf', distance: 0.2 }, score: 0.8 },
          { id: 'doc-2', content: 'second', metadata: {} },
        ],
      };

      // Act
      const [evalCase] = await loadRows([row]);

      // Assess
      expect(evalCase?.engines[DEFAULT_ENGINE]).toEqual(
        engineOutput({
          retrieved_context: [
            { doc_uri: 'doc-1', content: 'first', score: 0.8, rank: 1, metadata: { source: 'a.pdf', distance: 0.2 } },
            { doc_uri: 'doc-2', content: 'second', rank: 2 },
          ],
          response: 'A.',
        }),
      );
    });
  });
});
