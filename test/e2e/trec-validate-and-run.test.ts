import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputError } from '../../shared/schema/input-error.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const root = join(import.meta.dirname, '..', '..');
const fixture = (name: string): string => join(root, 'test', 'fixtures', 'trec-eval', name);

interface Outcome {
  readonly exitCode: number;
  readonly stdout: string;
}

/** The built CLI, its exit code and output whether it succeeds or not. */
async function assay(args: readonly string[]): Promise<Outcome> {
  try {
    const { stdout } = await promisify(execFile)(join(root, 'cli', 'bin.js'), args, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return { exitCode: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { exitCode: failed.code, stdout: failed.stdout };
  }
}

/** The files named `name` anywhere under `folder`. */
async function findFiles(folder: string, name: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name === name).map((entry) => join(entry.parentPath, entry.name));
}

interface Validated {
  readonly exitCode: number;
  readonly cases: number;
  readonly engines: Record<string, number>;
  readonly errors: InputError[];
}

interface Ran {
  /** The topics of the run's cases, in the order cases.jsonl lists them. */
  readonly topics: string[];
  readonly errors: InputError[];
}

/**
 * `assay validate` and `assay run` on one collection, through the one
 * collection load and the one run-line rule (shared/trec/run-line.ts): the
 * same errors, word for word and at the same file:line (the run names the
 * copy of the file in its store), and the cases
 * validate counts are the cases run makes.
 */
describe('assay validate and assay run on the same TREC collection', () => {
  let folder: TempFolder;
  beforeAll(async () => {
    folder = await createTempFolder();
  });
  afterAll(async () => {
    await folder.remove();
  });

  async function validate(qrels: string, runs: readonly string[]): Promise<Validated> {
    const { exitCode, stdout } = await assay(['validate', '--json', qrels, ...runs]);
    const parsed = JSON.parse(stdout) as { cases: number; engines: Record<string, number>; errors: InputError[] };
    return { exitCode, cases: parsed.cases, engines: parsed.engines, errors: parsed.errors };
  }

  async function run(name: string, qrels: string, runs: readonly string[]): Promise<Ran> {
    const store = join(folder.path, `${name}-store`);
    const out = join(folder.path, `${name}-report`);
    await assay(['run', '--qrels', qrels, ...runs.flatMap((path) => ['--run', path]), '--store', store, '--out', out]);
    const [errorsFile] = await findFiles(store, 'input-errors.jsonl');
    const errorLines = errorsFile === undefined ? [] : (await readFile(errorsFile, 'utf8')).split('\n').filter((line) => line !== '');
    const caseLines = (await readFile(join(out, 'cases.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
    const topics = [...new Set(caseLines.map((line) => (JSON.parse(line) as { request_id: string }).request_id))];
    return { topics, errors: errorLines.map((line) => JSON.parse(line) as InputError) };
  }

  it('finds no error in a good collection, and run makes the cases validate counts', async () => {
    // Prepare
    const runs = [fixture('results.test'), fixture('results.trunc')];

    // Act
    const validated = await validate(fixture('qrels.test'), runs);
    const ran = await run('good', fixture('qrels.test'), runs);

    // Assess
    expect(validated.exitCode).toBe(0);
    expect(validated.errors).toEqual([]);
    expect(ran.errors).toEqual([]);
    expect(ran.topics.length).toBe(validated.cases);
    expect(validated.cases).toBeGreaterThan(0);
  });

  it('reports the same errors, worded alike at the same file and line, for a collection with bad lines', async () => {
    // Prepare: the fixture's run with a line of five fields, a score that is no number, and a document listed twice for its topic
    const lines = (await readFile(fixture('results.test'), 'utf8')).split('\n');
    const [topic = '', , document = ''] = (lines[2] ?? '').split(/\s+/);
    lines[10] = '301 Q0 short-line 1 2.5';
    lines[20] = `${lines[20]?.split(/\s+/).slice(0, 4).join(' ')} high STANDARD`;
    lines.splice(30, 0, `${topic} Q0 ${document} 9 0.5 STANDARD`);
    const bad = await folder.write('bad.run', lines.join('\n'));
    const runs = [bad, fixture('results.trunc')];

    // Act
    const validated = await validate(fixture('qrels.test'), runs);
    const ran = await run('bad', fixture('qrels.test'), runs);

    // Assess
    expect(validated.exitCode).toBe(1);
    expect(validated.errors.map(({ line, field, message }) => ({ line, field, message }))).toEqual([
      { line: 11, field: undefined, message: 'expected at least 6 fields "qid iter docno rank score tag", found 5' },
      { line: 21, field: 'score', message: 'expected a number, got "high"' },
      { line: 31, field: 'docno', message: `run STANDARD retrieves document ${document} twice for topic ${topic}` },
    ]);
    expect(validated.errors.every((error) => error.file === bad)).toBe(true);
    // The run reads the copy of the file in its store (datasets/<suite>/<qrels>.trec/runs/<n>/bad.run), and names that copy.
    expect(ran.errors.every((error) => error.file.endsWith('/runs/1/bad.run'))).toBe(true);
    expect(ran.errors.map((error) => ({ ...error, file: bad }))).toEqual(validated.errors);
    expect(ran.topics.length).toBe(validated.cases);
  });
});
