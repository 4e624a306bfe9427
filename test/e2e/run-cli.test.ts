import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { closedPort } from '../support/closed-port.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const root = join(import.meta.dirname, '..', '..');
let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

describe('assay run, as the README runs it', () => {
  it('evaluates the example dataset with the lexical judge, printing the summary and the report paths', async () => {
    // Prepare: no judge key in the environment, as on a fresh machine
    const environment = { ...process.env };
    delete environment.OPENAI_API_KEY;
    const out = join(folder.path, 'report');

    // Act
    const { stdout, stderr } = await promisify(execFile)(
      join(root, 'cli', 'bin.js'),
      ['run', 'examples/datasets/search-assistant.jsonl', '--store', join(folder.path, 'store'), '--out', out],
      { cwd: root, env: environment },
    );

    // Assess
    expect(stderr).toContain('cases 12/12');
    const runId = /^run (r-[0-9a-f]{16})\n/.exec(stdout)?.[1];
    expect(runId).toBeDefined();
    // The lexical judge makes no call, but a dataset this small is judged in one thread: starting threads would cost more than they save.
    expect(stderr.split('\n')[0]).toBe(
      `assay: run ${runId} on store ${join(folder.path, 'store')}, in-process queues; if interrupted, finish it with: assay resume ${runId} --store ${join(folder.path, 'store')}`,
    );
    expect(stdout).toMatch(/^lexical judge \(non-LLM approximations\): OPENAI_API_KEY is not set$/m);
    expect(stdout).toMatch(/^retrieval\/ground_truth\/ndcg@10\/average\s+\S+ \(n=9\)\s+\S+ \(n=9\)$/m);
    // The Quick start shows the summary table as this run prints it
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const shownTable = /^metric {2,}bm25 {2,}hybrid\n[\s\S]*?\n\n/m.exec(readme)?.[0];
    expect(shownTable).toBeDefined();
    expect(stdout).toContain(shownTable);
    expect(stdout).toContain(`  ${join(out, 'report.json')}`);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(Object.keys(report.engines)).toEqual(['bm25', 'hybrid']);
  });

  it('names a store whose path a shell would split as a shell reads it back, in the command that finishes the run', async () => {
    // Prepare: a store path with a space and a quote, as a folder under "My Documents" has
    const environment = { ...process.env };
    delete environment.OPENAI_API_KEY;
    const store = join(folder.path, "team's store");
    const { stderr } = await promisify(execFile)(
      join(root, 'cli', 'bin.js'),
      ['run', 'examples/datasets/search-assistant.jsonl', '--store', store, '--out', join(folder.path, 'quoted-out')],
      { cwd: root, env: environment },
    );
    const finish = /if interrupted, finish it with: assay (resume .*)$/m.exec(stderr)?.[1] ?? '';

    // Act: the command as printed, pasted into a shell
    const resumed = await promisify(execFile)(
      'sh',
      ['-c', `"$0" ${finish} --out "$1"`, join(root, 'cli', 'bin.js'), join(folder.path, 'quoted-out')],
      {
        cwd: root,
        env: environment,
      },
    );

    // Assess
    expect(finish).toMatch(/^resume r-[0-9a-f]{16} --store '.+\/team'\\''s store'$/);
    expect(resumed.stderr).toMatch(/^assay: run r-[0-9a-f]{16}: 0 unfinished cases sent again$/m);
  });

  it('names no judge on the judge line of a run whose config lists none, whatever key is set', async () => {
    // Prepare: a judge key in the environment, and a config without judges
    const config = await folder.write('no-judges.yaml', 'judges: []\n');
    const saved = { ...process.env };
    Object.assign(process.env, {
      OPENAI_API_KEY: 'sk-no-judges-Hn4Kd8Lq2Zr6',
      OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
    });

    // Act
    const result = await runCli([
      'run',
      'examples/datasets/search-assistant.jsonl',
      '--config',
      config,
      '--store',
      join(folder.path, 'no-judges-store'),
      '--out',
      join(folder.path, 'no-judges'),
    ]).finally(() => {
      process.env = saved;
    });

    // Assess
    expect(result.exitCode).toBe(0);
    const line = 'no judges: ground-truth metrics only (the config lists judges: [])';
    expect(result.stdout.split('\n')[1]).toBe(line);
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'no-judges', 'report.json'), 'utf8')));
    expect(report.judge).toBe(line);
  });

  it('explains a bad option', async () => {
    const failure = await promisify(execFile)(
      join(root, 'cli', 'bin.js'),
      ['run', 'examples/datasets/search-assistant.jsonl', '--concurrency', '0'],
      { cwd: root },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('assay run: --concurrency got "0"; expected an integer from 1 to 1000');
  });

  it('evaluates TREC runs: every run under its tag, with the doubles of assay ir-metrics (trec_eval without -c)', async () => {
    // Prepare
    const fixture = (name: string) => join(root, 'test', 'fixtures', 'trec-eval', name);
    const out = join(folder.path, 'trec-report');
    const runs = [fixture('results.test'), fixture('results.trunc')];
    const measures = ['-m', 'map', '-m', 'P.10', '-m', 'ndcg_cut.10', '-m', 'recip_rank'];

    // Act
    const { stdout } = await promisify(execFile)(
      join(root, 'cli', 'bin.js'),
      [
        'run',
        '--qrels',
        fixture('qrels.test'),
        ...runs.flatMap((run) => ['--run', run]),
        '--store',
        join(folder.path, 'trec-store'),
        '--out',
        out,
      ],
      { cwd: root },
    );
    const reference = await promisify(execFile)(
      join(root, 'cli', 'bin.js'),
      ['ir-metrics', '--json', ...measures, fixture('qrels.test'), ...runs],
      { cwd: root },
    );

    // Assess
    expect(stdout).toMatch(/^no judges: ground-truth metrics from the qrels only/m);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    const expected = JSON.parse(reference.stdout) as Record<string, { all: Record<string, number> }>;
    const names = { map: 'average_precision', P_10: 'precision@10', ndcg_cut_10: 'ndcg@10', recip_rank: 'reciprocal_rank' };
    expect(Object.keys(report.engines)).toEqual(['STANDARD', 'results.trunc:STANDARD']);
    for (const [engine, run] of [
      ['STANDARD', runs[0]],
      ['results.trunc:STANDARD', runs[1]],
    ] as const) {
      for (const [trecName, assayName] of Object.entries(names)) {
        expect(report.engines[engine]?.[`retrieval/ground_truth/${assayName}/average`], `${engine} ${trecName}`).toBe(
          expected[run as string]?.all[trecName],
        );
      }
    }
  });

  it('writes the same report on worker threads as in one thread', async () => {
    // Prepare: 40 topics of two runs, enough for the reduce to split its range between two threads
    const topics = Array.from({ length: 40 }, (_, index) => String(401 + index));
    const runText = (tag: string, step: number) =>
      topics
        .flatMap((topic) =>
          Array.from(
            { length: 30 },
            (_, rank) => `${topic} Q0 d${(rank * step) % 37} ${rank + 1} ${(100 - Math.floor(rank / 3)).toFixed(1)} ${tag}\n`,
          ),
        )
        .join('');
    const qrels = await folder.write(
      'threads.qrels',
      topics.flatMap((topic) => Array.from({ length: 12 }, (_, doc) => `${topic} 0 d${doc * 3} ${(doc + Number(topic)) % 4}\n`)).join(''),
    );
    const runs = [await folder.write('threads-a.run', runText('a', 1)), await folder.write('threads-b.run', runText('b', 5))];
    // A judge key in the environment changes nothing: without --queries and --corpus no judge runs, so nothing calls out.
    const unreachable = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = (threads: number) =>
      promisify(execFile)(
        join(root, 'cli', 'bin.js'),
        [
          'run',
          '--qrels',
          qrels,
          ...runs.flatMap((path) => ['--run', path]),
          '--threads',
          String(threads),
          '--store',
          join(folder.path, `threads-${threads}`),
          '--out',
          join(folder.path, `threads-${threads}-report`),
        ],
        { cwd: root, env: { ...process.env, OPENAI_API_KEY: 'sk-never-used', OPENAI_BASE_URL: unreachable } },
      );

    // Act
    const [threaded, single] = [await run(2), await run(1)];

    // Assess: the threads are named where they were used, and the reports are the same but for the run's id and time
    expect(threaded.stderr.split('\n')[0]).toMatch(/in-process queues, 2 worker threads; if interrupted/);
    expect(single.stderr.split('\n')[0]).toMatch(/in-process queues; if interrupted/);
    const read = (threads: number, name: string) => readFile(join(folder.path, `threads-${threads}-report`, name), 'utf8');
    expect(await read(2, 'cases.jsonl')).toBe(await read(1, 'cases.jsonl'));
    const comparable = (text: string) => {
      const { run_id: _runId, created_at: _createdAt, ...rest } = reportSchema.parse(JSON.parse(text));
      return rest;
    };
    expect(comparable(await read(2, 'report.json'))).toEqual(comparable(await read(1, 'report.json')));
    expect((await read(2, 'cases.jsonl')).split('\n')).toHaveLength(2 * 40 + 1);
  });

  it('runs the valid rows of a dataset and warns first that a row is in no metric, here a grade too large to count', async () => {
    // Prepare: a score where a grade goes (999999999 once took 2.6 GB and crashed the process)
    const row = (id: string, grade: number) =>
      JSON.stringify({
        request_id: id,
        request: `question ${id}`,
        retrieved_context: [{ doc_uri: 'd1', content: 'the answer' }],
        expected_retrieved_context: [{ doc_uri: 'd1', grade }],
      });
    const dataset = await folder.write('one-bad-grade.jsonl', `${row('q1', 2)}\n${row('q2', 999999999)}\n`);
    const environment = { ...process.env };
    delete environment.OPENAI_API_KEY;
    const out = join(folder.path, 'bad-grade-out');

    // Act: the built bin, as a user runs it
    const { stdout, stderr } = await promisify(execFile)(
      join(root, 'cli', 'bin.js'),
      ['run', dataset, '--store', join(folder.path, 'bad-grade-store'), '--out', out],
      { cwd: root, env: environment },
    );

    // Assess: one case evaluated, and the row left out said on the terminal and first in report.md
    const runId = /^run (r-[0-9a-f]{16})\n/.exec(stdout)?.[1];
    const warning =
      'datasets/default/one-bad-grade.jsonl has 1 input error: what it names is in no metric (the first: ' +
      'datasets/default/one-bad-grade.jsonl:2: field "expected_retrieved_context[0].grade": expected a number <= 10000, got a number (999999999) ' +
      '(fix: give grade as an integer of at most 10000 (0 = not relevant, 1 or more = relevant; a larger number is most likely a score, a rank or an id), ' +
      `or drop it to mean relevant); every one is in the store, at runs/${runId}/input-errors.jsonl)`;
    expect(stderr.split('\n')).toContain(`assay: warning: ${warning}`);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(report.cases).toEqual({ total: 1, evaluated: 1, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.input_errors).toBe(1);
    expect(report.warnings).toEqual([warning]);
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    expect(markdown).toContain(
      '**Cases:** 1 total, 1 evaluated, 0 failed, 0 missing (1 input error)\n\n## Warnings\n\n- datasets/default/one-bad-grade.jsonl has 1 input error',
    );
  });

  it('exits 1 naming the first input error when no line of the runs is valid', async () => {
    // Prepare
    const run = await folder.write('bad.run', '301 Q0 d1 1 high r\n');

    // Act
    const result = await runCli([
      'run',
      '--qrels',
      'test/fixtures/trec-eval/qrels.test',
      '--run',
      run,
      '--store',
      join(folder.path, 'bad-store'),
      '--out',
      join(folder.path, 'bad-out'),
    ]);

    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      'assay run: no run to evaluate: no run line of datasets/default/qrels.trec/collection.json is valid (1 input error; the first: datasets/default/qrels.trec/runs/1/bad.run:1',
    );
  });

  it('exits 1 on a dataset of queries alone, saying it names no engine and how to give one, where it spoke of run files', async () => {
    // Act: the sweep's queries (request and labels, no engine), run without the sweep's config
    const result = await runCli([
      'run',
      'examples/datasets/queries.jsonl',
      '--store',
      join(folder.path, 'queries-store'),
      '--out',
      join(folder.path, 'queries-out'),
    ]);

    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'assay run: no engine to evaluate: the rows of datasets/default/queries.jsonl name no engine, and give no retrieved context and no response ' +
        '(queries alone); give each row the engine, the context it retrieved and its response, or ask live engines for them: engines in the config (docs/engines.md)',
    );
  });

  it.each([
    [['run'], 'Give a dataset file, or a TREC collection with --qrels QRELS --run RUN'],
    [['run', '--run', 'test/fixtures/trec-eval/results.test'], '--run, --queries and --corpus go with --qrels QRELS'],
    [['run', '--qrels', 'test/fixtures/trec-eval/qrels.test'], '--qrels needs at least one --run RUN'],
    [
      [
        'run',
        'examples/datasets/search-assistant.jsonl',
        '--qrels',
        'test/fixtures/trec-eval/qrels.test',
        '--run',
        'test/fixtures/trec-eval/results.test',
      ],
      'not both',
    ],
    [
      [
        'run',
        '--qrels',
        'test/fixtures/trec-eval/qrels.test',
        '--run',
        'test/fixtures/trec-eval/results.test',
        '--corpus',
        'test/fixtures/trec-eval/qrels.test',
      ],
      '--queries and --corpus go together',
    ],
    [
      ['submit', '--bucket', 'b', '--qrels', 'test/fixtures/trec-eval/qrels.test', '--run', 'missing.run'],
      'The run file missing.run does not exist',
    ],
  ])('explains a TREC usage error: assay %j', async (args, message) => {
    // Act: in this process, where the test's working folder is the repository
    const failure = await runCli(args);

    // Assess
    expect(failure.exitCode).toBe(2);
    expect(failure.stderr).toContain(message);
  });
});
