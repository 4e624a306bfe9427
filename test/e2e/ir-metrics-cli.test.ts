import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'assay-ir-metrics-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, lines: readonly string[]): string {
  const path = join(folder, name);
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

const qrels = file('qrels.txt', ['q1 0 a 1', 'q1 0 b 0', 'q1 0 c 2', 'q2 0 x 1', 'q3 0 y 1']);

describe('assay ir-metrics, as a user runs it', () => {
  it('runs through the installed bin (shebang, TypeScript loader) and prints trec_eval rows', async () => {
    // Prepare
    const run = file('run-bin.txt', ['q1 Q0 a 1 3.0 mine', 'q1 Q0 b 2 2.0 mine', 'q2 Q0 x 1 1.0 mine']);
    const bin = join(import.meta.dirname, '..', '..', 'cli', 'bin.js');
    // Act
    const { stdout } = await promisify(execFile)(bin, ['ir-metrics', '-m', 'P.1', '-m', 'num_q', qrels, run]);
    // Assess: q3 is missing from the run and skipped, so 2 topics: P@1 = (1 + 1) / 2
    expect(stdout).toBe('num_q                 \tall\t2\nP_1                   \tall\t1.0000\n');
  });

  it('rejects a document retrieved twice for a topic, naming the topic and the document', async () => {
    const run = file('run-duplicate.txt', ['q1 Q0 a 1 3.0 mine', 'q1 Q0 b 2 2.0 mine', 'q1 Q0 a 3 1.0 mine']);
    const result = await runCli(['ir-metrics', qrels, run]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/run-duplicate\.txt:3: field "docno": topic q1 retrieves document a twice/);
  });

  it('rejects a document judged twice for a topic, naming the line', async () => {
    const badQrels = file('qrels-duplicate.txt', ['q1 0 a 1', 'q1 0 a 0']);
    const run = file('run-ok.txt', ['q1 Q0 a 1 3.0 mine']);
    const result = await runCli(['ir-metrics', badQrels, run]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('qrels-duplicate.txt:2: field "docno": topic q1 judges document a twice');
  });

  it('refuses a UTF-16 qrels file as a whole, saying so and how to convert it', async () => {
    // Prepare: qrels as Windows PowerShell 5 writes them with `>`, UTF-16LE behind its byte-order mark
    const path = join(folder, 'qrels-utf16.txt');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('q1 0 a 1\r\nq1 0 b 0\r\n', 'utf16le')]));
    const run = file('run-ok.txt', ['q1 Q0 a 1 3.0 mine']);

    // Act
    const result = await runCli(['ir-metrics', path, run]);

    // Assess: one line for the file, not a grade error naming NUL bytes
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `assay ir-metrics: ${path}: the file is UTF-16LE (it starts with the bytes FF FE); assay reads UTF-8 text ` +
        '(fix: save it as UTF-8, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8 (Windows PowerShell 5 writes UTF-16 with > and Out-File; give Out-File -Encoding utf8))\n',
    );
  });

  it.each([
    { lines: ['q1 0 a'], message: /qrels\.txt:1: expected 4 fields "qid iter docno grade", found 3/ },
    { lines: ['q1 0 a high'], message: /field "grade": expected an integer relevance grade, got "high"/ },
    // A grade's counts grow to the grade: 999999999 took 2.6 GB and crashed the process.
    {
      lines: ['q1 0 a 1', 'q1 0 b 999999999'],
      message: /qrels\.txt:2: field "grade": expected a relevance grade of at most 10000, got "999999999"/,
    },
  ])('names the malformed qrels line: $lines', async ({ lines, message }) => {
    const badQrels = file('bad-qrels.txt', lines);
    const run = file('run-ok.txt', ['q1 Q0 a 1 3.0 mine']);
    const result = await runCli(['ir-metrics', badQrels, run]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it.each([
    { lines: ['q1 Q0 a 1 3.0'], message: /run-bad\.txt:1: expected at least 6 fields/ },
    { lines: ['q1 Q0 a 1 3.0 mine', 'q1 Q0 b 2 high mine'], message: /run-bad\.txt:2: field "score": expected a number, got "high"/ },
  ])('names the malformed run line: $lines', async ({ lines, message }) => {
    const run = file('run-bad.txt', lines);
    const result = await runCli(['ir-metrics', qrels, run]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it.each([
    { args: ['-m', 'bpref'], message: /Unsupported measure "bpref"/ },
    { args: ['-m', 'P.0'], message: /cutoff/ },
    { args: ['-m', 'P.5,5'], message: /duplicate/ },
    { args: ['-l', '-1'], message: /Expected -l to be an integer from 0 and up/ },
  ])('explains a bad option: $args', async ({ args, message }) => {
    const run = file('run-ok.txt', ['q1 Q0 a 1 3.0 mine']);
    const result = await runCli(['ir-metrics', ...args, qrels, run]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('scores 0 on a topic whose judgments are all negative, where trec_eval 10.0 fails', async () => {
    // Prepare: topic a has only negative grades (R = 0); topic b has one relevant document.
    const negativeQrels = file('qrels-negative.txt', ['a 0 d1 -1', 'a 0 d2 -1', 'b 0 d3 1']);
    const run = file('run-negative.txt', ['a Q0 d1 1 2 r', 'b Q0 d3 1 2 r', 'b Q0 d4 2 1 r']);

    // Act
    const result = await runCli(['ir-metrics', '-q', '-m', 'map', '-m', 'ndcg', '-m', 'num_rel', negativeQrels, run]);

    // Assess: a scores 0 and counts in the mean; b: AP = 1/1 / 1 = 1, NDCG = 1; means (0 + 1) / 2
    expect(result.stdout).toBe(
      `${[
        'num_rel               \ta\t0',
        'map                   \ta\t0.0000',
        'ndcg                  \ta\t0.0000',
        'num_rel               \tb\t1',
        'map                   \tb\t1.0000',
        'ndcg                  \tb\t1.0000',
        'num_rel               \tall\t1',
        'map                   \tall\t0.5000',
        'ndcg                  \tall\t0.5000',
      ].join('\n')}\n`,
    );
  });

  it('says which file is missing', async () => {
    const result = await runCli(['ir-metrics', qrels, join(folder, 'nope.txt')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/The run file .*nope\.txt does not exist/);
  });

  it('fails clearly when no topic is in both files', async () => {
    const run = file('run-other.txt', ['z9 Q0 a 1 3.0 mine']);
    const result = await runCli(['ir-metrics', qrels, run]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/No topic has both judgments and results/);
  });

  it('accepts assay names, BOM and CRLF, and prints JSON with topics in trec order', async () => {
    const run = file('run-crlf.txt', ['\ufeffq1 Q0 c 1 1.0 mine\r', 'q1 Q0 a 2 1.0 mine\r', 'q2 Q0 x 1 1.0 mine\r']);
    const result = await runCli(['ir-metrics', '--json', '-m', 'ndcg@2', '-m', 'precision@1', qrels, run]);
    // q1: a and c tie at 1.0, so c comes first (descending docno): grades [2, 1];
    // ideal [2, 1] as well, so ndcg_cut_2 = 1. P_1 = 1 for both topics.
    expect(result.stdout).toBe(
      '{\n  "per_query": {\n    "q1": {"P_1": 1, "ndcg_cut_2": 1},\n    "q2": {"P_1": 1, "ndcg_cut_2": 1}\n  },\n' +
        '  "all": {"P_1": 1, "ndcg_cut_2": 1}\n}\n',
    );
  });
});
