import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CaseGrouper } from '../../../shared/rows/case-grouper.js';
import type { NormalisedRow } from '../../../shared/rows/normalise-row.js';
import { CASE_ID_RULE, caseIdFor } from '../../../shared/run/run-identity.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { jsonLines, loadAll } from './factories.js';

function row(line: number, requestId: string, engine = 'bm25'): NormalisedRow {
  return { line, request_id: requestId, request: `question ${requestId}`, engine: { name: engine, retrieved_context: [] }, tags: {} };
}

/** A case id function that folds case, so "Q1" and "q1" collide. */
const foldingCase = (requestId: string): string => requestId.toLowerCase();

describe('CaseGrouper: two requests with one case id', () => {
  it('rejects the later request, naming both lines, and keeps the first', () => {
    // Prepare
    const grouper = new CaseGrouper('rows.jsonl', { idOf: foldingCase, fix: ' that differ in more than letter case' });

    // Act
    const first = grouper.add(row(1, 'Q1'));
    const second = grouper.add(row(4, 'q1'));
    const secondAgain = grouper.add(row(6, 'q1', 'dense'));
    const cases = [...grouper.finish()];

    // Assess
    expect(first).toEqual([]);
    expect(second).toEqual([
      {
        file: 'rows.jsonl',
        line: 4,
        field: 'request_id',
        message: 'request_id "q1" has the case id "q1", which request_id "Q1" on line 1 already has',
        fix: expect.stringMatching(/distinct request_id/) as unknown as string,
      },
    ]);
    expect(secondAgain.map((error) => [error.line, error.message])).toEqual([
      [6, 'request_id "q1" has the case id "q1", which request_id "Q1" on line 1 already has'],
    ]);
    expect(cases.map((evalCase) => evalCase.request_id)).toEqual(['Q1']);
  });

  it('groups by request id alone when no case id function is given', () => {
    const grouper = new CaseGrouper('rows.jsonl');

    const errors = [...grouper.add(row(1, 'Q1')), ...grouper.add(row(2, 'q1'))];

    expect(errors).toEqual([]);
    expect(grouper.size).toBe(2);
  });
});

describe('loading a dataset whose request ids collide as case ids', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  // caseIdFor keeps a store-safe id as it is and hashes any other: a request id that is
  // literally the hash of another request's id lands on the same case id.
  const unsafeId = 'what is x?';
  const hashedId = caseIdFor(unsafeId);
  const rows = [
    { request_id: unsafeId, request: 'what is x?', engine: 'bm25', response: 'x is a letter' },
    { request_id: 'other', request: 'another question', engine: 'bm25', response: 'r' },
    { request_id: hashedId, request: 'a different question', engine: 'bm25', response: 'r' },
  ];

  it.each([
    ['in memory', undefined],
    ['through spill files', 'spill'],
  ])('rejects the later request %s and loads the rest', async (_how, spill) => {
    // Prepare
    const file = await folder.write('rows.jsonl', jsonLines(rows));

    // Act
    const loaded = await loadAll(file, {
      caseIds: CASE_ID_RULE,
      ...(spill === undefined ? {} : { spillFolder: join(folder.path, spill) }),
    });

    // Assess
    expect(hashedId).toMatch(/^c-[0-9a-f]{20}$/);
    expect(loaded.cases.map((evalCase) => evalCase.request_id).sort()).toEqual(['other', unsafeId]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toMatchObject({ line: 3, field: 'request_id' });
    expect(loaded.errors[0]?.message).toContain('on line 1');
    expect(loaded.counts).toMatchObject({ rows: 3, cases: 2, errors: 1 });
  });

  it('stops at the collision under strict', async () => {
    const file = await folder.write('rows.jsonl', jsonLines(rows));

    await expect(loadAll(file, { caseIds: CASE_ID_RULE, strict: true })).rejects.toThrow(/rows\.jsonl:3: field "request_id": .*on line 1/);
  });
});
