import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../cli/main.js';
import { caseIdFor } from '../../../shared/run/run-identity.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/datasets/', import.meta.url));

interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function runCli(...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const outSpy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const errorSpy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const exitCode = await main(['node', 'assay', 'validate', ...args]);
    return { exitCode, stdout, stderr };
  } finally {
    outSpy.mockRestore();
    errorSpy.mockRestore();
  }
}

describe('assay validate', () => {
  let folder: TempFolder;
  beforeEach(async () => {
    folder = await createTempFolder();
  });
  afterEach(async () => {
    await folder.remove();
  });

  it('prints rows, cases, engines with their cases, labelled cases and no errors, and exits 0', async () => {
    // Act
    const result = await runCli(`${FIXTURES}support-ragas.csv`);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        'rows: 8',
        'cases: 4',
        'engines: 2',
        '  bm25: 4 cases',
        '  dense: 4 cases',
        'labelled cases: 3',
        'cases with an expected response: 3',
        'cases with human verdicts: 0',
        'errors: 0',
        '',
      ].join('\n'),
    );
  });

  it('prints the counts and each error with file, line, field and fix, and exits 1 when rows are bad', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '{"question": "a", "contexts": ["x"]}\n{"question": "b", "contexts": [1]}\n');

    // Act
    const result = await runCli(file);

    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('rows: 2\ncases: 1\n');
    expect(result.stdout).toContain(
      `  ${file}:2: field "contexts[0]": expected a string or an object with doc_uri and content, got a number (1) (fix: `,
    );
    expect(result.stderr).toMatch(/1 input error/);
  });

  it('reports two requests that would share a case id in a run, as ingest does', async () => {
    // Prepare: "what is x?" is hashed into a case id; the second row's request_id is that hash
    const rows = [
      { request_id: 'what is x?', request: 'what is x?', response: 'r' },
      { request_id: caseIdFor('what is x?'), request: 'something else', response: 'r' },
    ];
    const file = await folder.write('rows.jsonl', rows.map((row) => JSON.stringify(row)).join('\n'));

    // Act
    const result = await runCli(file);

    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(`  ${file}:2: field "request_id": request_id "${caseIdFor('what is x?')}" has the case id`);
    expect(result.stdout).toContain('on line 1 already has');
  });

  it('caps the printed errors and says how many more there are', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', 'not json\n'.repeat(60));

    // Act
    const result = await runCli(file);

    // Assess
    expect(result.stdout.match(/rows\.jsonl:\d+: /g)).toHaveLength(50);
    expect(result.stdout).toContain('  ... and 10 more\n');
  });

  it('prints JSON with --json', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '{"request": "a", "engine": "x", "expected_response": "A"}\n{"request": 5}\n');

    // Act
    const result = await runCli('--json', file);

    // Assess
    expect(JSON.parse(result.stdout)).toEqual({
      rows: 2,
      cases: 1,
      engines: { x: 1 },
      labelled_cases: 0,
      expected_response_cases: 1,
      human_verdict_cases: 0,
      errors: [{ file, line: 2, field: 'request', message: expect.stringMatching(/^expected a string/), fix: expect.any(String) }],
      error_count: 1,
    });
    expect(result.exitCode).toBe(1);
  });

  it('stops at the first bad row with --strict', async () => {
    // Prepare
    const file = await folder.write('rows.jsonl', '{"request": 5}\n{"request": 6}\n');

    // Act
    const result = await runCli('--strict', file);

    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `assay validate: ${file}:1: field "request": expected a string, a chat object {"messages": [{"role": "user", "content": "..."}]} or {"query": "..."}, got a number (5) (fix: give the request as the query text)\n`,
    );
  });

  it('tells qrels from runs by their columns and loads them with a corpus and queries', async () => {
    // Prepare
    const qrels = await folder.write('judgments', 'q1 0 d1 1\nq2 0 d2 1\n');
    const runA = await folder.write('a.run', 'q1 Q0 d1 1 2 bm25\n');
    const runB = await folder.write('b.run', 'q1 Q0 d2 1 2 dense\nq2 Q0 d2 1 2 dense\n');
    const corpus = await folder.write('corpus.tsv', 'd1\tone\nd2\ttwo\n');
    const queries = await folder.write('queries.jsonl', '{"_id": "q1", "text": "first?"}\n');

    // Act
    const result = await runCli('--json', qrels, runA, runB, '--corpus', corpus, '--queries', queries);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ rows: 5, cases: 2, engines: { bm25: 1, dense: 2 }, labelled_cases: 2, errors: [] });
  });

  it.each([
    ['a missing file', ['missing.jsonl'], /does not exist/],
    ['a file whose format cannot be told', ['notes.txt'], /Cannot tell the format/],
    ['--corpus without TREC files', ['rows.jsonl', '--corpus', 'rows.jsonl'], /--corpus and --queries go with TREC/],
  ])('exits 2 for %s', async (_described, args, message) => {
    // Prepare
    await folder.write('notes.txt', 'hello there\n');
    await folder.write('rows.jsonl', '{"request": "a"}\n');

    // Act
    const result = await runCli(...args.map((arg) => (arg.startsWith('--') ? arg : `${folder.path}/${arg}`)));

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
