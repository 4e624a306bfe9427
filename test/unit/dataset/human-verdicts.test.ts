import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatInputError } from '../../../shared/schema/input-error.js';
import { caseMessageSchema } from '../../../shared/schema/pipeline-messages.js';
import { parseStoredCase, storedCaseText } from '../../../shared/schema/stored-case.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { jsonLines, loadAll } from './factories.js';

/**
 * `human_verdicts` on an engine's row: a person's verdict on its response for
 * each judge id, kept on the engine's output for the worker to pair with the
 * judge's rating.
 */
let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

const ROW = { request_id: 'q1', request: 'How do I rotate a key?', engine: 'bm25', response: 'Create a second key first.' };

async function loadRows(rows: readonly object[]) {
  return loadAll(await folder.write('rows.jsonl', jsonLines(rows)));
}

describe('human_verdicts in a JSONL row', () => {
  it('keeps yes/no, reads true/false as yes/no, numbers (and numbers written as text) as numbers, and drops null verdicts', async () => {
    // Act
    const { cases, errors } = await loadRows([
      {
        ...ROW,
        human_verdicts: {
          correctness: 'yes',
          groundedness: false,
          safety: true,
          tone: 4,
          correctness_score: '0.5',
          relevance_to_query: null,
        },
      },
    ]);

    // Assess
    expect(errors).toEqual([]);
    expect(cases[0]?.engines.bm25?.human_verdicts).toEqual({
      correctness: 'yes',
      groundedness: 'no',
      safety: 'yes',
      tone: 4,
      correctness_score: 0.5,
    });
  });

  it('keeps each engine its own verdicts, and no field on an engine row without them', async () => {
    const { cases } = await loadRows([
      { ...ROW, human_verdicts: { correctness: 'no' } },
      { ...ROW, engine: 'dense', response: 'Rotate it.' },
    ]);

    expect(cases[0]?.engines.bm25?.human_verdicts).toEqual({ correctness: 'no' });
    expect(cases[0]?.engines.dense).not.toHaveProperty('human_verdicts');
    expect(cases[0]?.tags).toEqual({});
  });

  it('takes judge ids named like Object.prototype members as ordinary keys', async () => {
    const { cases, errors } = await loadRows([{ ...ROW, human_verdicts: { constructor: 'yes', tostring: 2 } }]);

    expect(errors).toEqual([]);
    const verdicts = cases[0]?.engines.bm25?.human_verdicts ?? {};
    expect(Object.hasOwn(verdicts, 'constructor')).toBe(true);
    expect(verdicts.constructor).toBe('yes');
    expect(Object.getPrototypeOf(verdicts)).toBe(Object.prototype);
  });

  it("rejects a verdict that is not yes, no, true, false or a number, with the row's line and a fix", async () => {
    // Act
    const { cases, errors } = await loadRows([
      { ...ROW, request_id: 'q0', human_verdicts: { correctness: 'yes' } },
      { ...ROW, human_verdicts: { correctness: 'maybe' } },
    ]);

    // Assess
    expect(cases.map((evalCase) => evalCase.request_id)).toEqual(['q0']);
    expect(errors).toEqual([
      {
        file: expect.any(String),
        line: 2,
        field: 'human_verdicts.correctness',
        message: 'must be "yes", "no", true, false or a number, got a string ("maybe")',
        fix: 'give "yes" or "no" (true or false) for a yes/no judge, a number on the scale of a graded one, or leave the judge out',
      },
    ]);
    expect(formatInputError(errors[0] as (typeof errors)[number])).toMatch(
      /rows\.jsonl:2: field "human_verdicts\.correctness": must be "yes", "no", true, false or a number, got a string \("maybe"\) \(fix: /,
    );
  });

  it.each([
    [{ correctness: ['yes'] }, 'human_verdicts.correctness', 'must be "yes", "no", true, false or a number, got an array'],
    [{ correctness: { rating: 'yes' } }, 'human_verdicts.correctness', 'must be "yes", "no", true, false or a number, got an object'],
    [
      { correctness: 'Yes please' },
      'human_verdicts.correctness',
      'must be "yes", "no", true, false or a number, got a string ("Yes please")',
    ],
    [
      { Correctness: 'yes' },
      'human_verdicts.Correctness',
      'the key "Correctness" is not a judge id (lower-case letters, digits and underscores, starting with a letter)',
    ],
    [
      ['yes'],
      'human_verdicts',
      'expected an object {"<judge id>": verdict}, each verdict "yes", "no", true, false or a number, got an array',
    ],
    [
      'yes',
      'human_verdicts',
      'expected an object {"<judge id>": verdict}, each verdict "yes", "no", true, false or a number, got a string',
    ],
  ])('rejects human_verdicts %j at %s', async (verdicts, field, message) => {
    const { errors } = await loadRows([{ ...ROW, human_verdicts: verdicts }]);

    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 1, field, message });
    expect(errors[0]?.fix.length).toBeGreaterThan(20);
  });

  it('rejects human verdicts on a label row: they go on the row with the response', async () => {
    // Act
    const { cases, errors } = await loadRows([
      ROW,
      { request_id: 'q1', request: ROW.request, expected_response: 'Create a second key.', human_verdicts: { correctness: 'yes' } },
    ]);

    // Assess
    expect(errors).toEqual([
      {
        file: expect.any(String),
        line: 2,
        field: 'human_verdicts',
        message:
          "human verdicts judge an engine's response, and this row has none: it is a label row (no response, retrieved list or engine name)",
        fix: "put human_verdicts on the row that carries the response they judge (the engine's row), not on a row of labels only",
      },
    ]);
    expect(cases[0]?.expected_response).toBeUndefined();
  });

  it('rejects a __proto__ judge id as any __proto__ key of a row', async () => {
    const file = await folder.write('rows.jsonl', `${JSON.stringify(ROW).slice(0, -1)}, "human_verdicts": {"__proto__": "yes"}}\n`);

    const { errors } = await loadAll(file);

    expect(errors.map((error) => error.field)).toEqual(['human_verdicts.__proto__']);
  });
});

describe('human_verdicts in a CSV row', () => {
  it('reads the cell as a JSON object', async () => {
    // Prepare
    const file = await folder.write(
      'rows.csv',
      'request_id,request,engine,response,human_verdicts\nq1,How?,bm25,Like this.,"{""correctness"": ""no"", ""tone"": 2}"\nq2,Why?,bm25,Because.,\n',
    );

    // Act
    const { cases, errors } = await loadAll(file);

    // Assess
    expect(errors).toEqual([]);
    expect(cases.map((evalCase) => evalCase.engines.bm25?.human_verdicts)).toEqual([{ correctness: 'no', tone: 2 }, undefined]);
  });

  it('says how to write the cell when it is not JSON, and names a bad verdict in it', async () => {
    const file = await folder.write(
      'rows.csv',
      'request,response,human_verdicts\nHow?,Like this.,correctness=yes\nWhy?,Because.,"{""correctness"": ""perhaps""}"\n',
    );

    const { errors } = await loadAll(file);

    expect(errors).toEqual([
      {
        file,
        line: 2,
        field: 'human_verdicts',
        message: 'expected a JSON list or object, got plain text',
        fix: 'write human_verdicts as a JSON object {"correctness": "yes", "correctness_score": 0.8}',
      },
      expect.objectContaining({
        line: 3,
        field: 'human_verdicts.correctness',
        message: 'must be "yes", "no", true, false or a number, got a string ("perhaps")',
      }),
    ]);
  });
});

describe("human verdicts through the pipeline's own forms", () => {
  const rows = Array.from({ length: 40 }, (_, index) => ({
    request_id: `q${index}`,
    request: `question ${index}`,
    engine: index % 2 === 0 ? 'bm25' : 'dense',
    response: `answer ${index}`,
    retrieved_context: [{ doc_uri: `d${index}`, content: `text ${index}` }],
    ...(index % 3 === 0 ? {} : { human_verdicts: { correctness: index % 2 === 0 ? 'yes' : 'no', tone: 1 + (index % 5) } }),
  }));

  it('survive the spill files of ingest: the same cases as grouped in memory', async () => {
    const file = await folder.write('rows.jsonl', jsonLines(rows));

    const inMemory = await loadAll(file);
    const spilled = await loadAll(file, { spillFolder: join(folder.path, 'spill') });

    const sorted = (cases: typeof inMemory.cases) => [...cases].sort((left, right) => (left.request_id < right.request_id ? -1 : 1));
    expect(sorted(spilled.cases)).toEqual(sorted(inMemory.cases));
    expect(
      inMemory.cases.filter((evalCase) => Object.values(evalCase.engines).some((output) => output.human_verdicts !== undefined)),
    ).toHaveLength(26);
  });

  it('survive a claim-checked case (its compact ranking) and a case message', async () => {
    const { cases } = await loadRows(rows.slice(1, 2));
    const evalCase = cases[0];
    if (evalCase === undefined) throw new Error('no case');

    const stored = parseStoredCase(JSON.parse(storedCaseText(evalCase)));
    const message = caseMessageSchema.parse(JSON.parse(JSON.stringify({ kind: 'case', run_id: 'r-1', case_id: 'q1', case: evalCase })));

    expect(evalCase.engines.dense?.human_verdicts).toEqual({ correctness: 'no', tone: 2 });
    expect(stored).toEqual(evalCase);
    expect(message.case).toEqual(evalCase);
  });

  it('refuses a stored verdict that is not yes, no or a number', () => {
    const stored = {
      request_id: 'q1',
      request: 'q',
      engines: { bm25: { retrieved_context: [], tags: {}, human_verdicts: { correctness: 'maybe' } } },
      tags: {},
    };

    expect(() => parseStoredCase(stored)).toThrow();
  });
});
