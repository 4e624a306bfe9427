import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, startBm25Server } from '../../examples/engines/bm25-server.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { seededRandom } from '../../shared/statistics/seeded-random.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { startDeployedStack, type DeployedStack } from '../support/deployed-stack.js';
import { commandWords, documentedCommands, type DocumentedCommand } from '../support/documented-commands.js';
import { readRepositoryFile, REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiBatchServer } from '../support/openai-batch-server.js';

/**
 * Every `npx assay` command the README and docs/ show, run as a reader runs it:
 * the built bin, in a folder holding a copy of examples/, with no judge key and
 * no AWS account. Commands that need a service get a real one on loopback: the
 * example engine (the docs' port 8700 replaced by a free one in the copied
 * config), a deployed stack on the S3/SQS emulator (`<BucketName>` and `RUN`
 * filled in, `--aws-endpoint` added). Output shown under a `$ ` prompt must be
 * what the command prints. A synopsis (`[--json]`) is not run: its options must
 * be ones `--help` lists.
 */
type Scenario = (args: readonly string[]) => Promise<BuiltCliOutcome>;

let workspace: TempFolder;
let engine: Server | undefined;
let stack: DeployedStack | undefined;
const assay = (args: readonly string[], env: Record<string, string> = {}) => runBuiltCli(args, { cwd: workspace.path, env });
const inWorkspace = (...parts: string[]) => join(workspace.path, ...parts);
const readReport = async (folder: string): Promise<Report> =>
  reportSchema.parse(JSON.parse(await readFile(inWorkspace(folder, 'report.json'), 'utf8')));
const helps = new Map<string, Promise<BuiltCliOutcome>>();
/** `assay NAME --help`, asked once for the file: both the help scenario and the synopses read it. */
const helpOf = (name: string): Promise<BuiltCliOutcome> => {
  const known = helps.get(name) ?? assay([...name.split(' ').filter(Boolean), '--help']);
  helps.set(name, known);
  return known;
};
const REPORT_FILES = ['cases.jsonl', 'judgments.qrels', 'report.html', 'report.json', 'report.md'];

beforeAll(async () => {
  workspace = await createTempFolder();
  await cp(join(REPOSITORY_ROOT, 'examples'), inWorkspace('examples'), { recursive: true });
});
afterAll(async () => {
  await stopEngine();
  await stack?.close();
  await workspace.remove();
});

/** The example engine on a free port, and the workspace's sweep.yaml pointed at it. */
async function startEngine(degraded = false): Promise<void> {
  await stopEngine();
  const documents = loadCorpus(inWorkspace('examples', 'engines', 'corpus.jsonl'));
  engine = await startBm25Server({ port: 0, host: '127.0.0.1', delayMs: 0, failRate: 0, degraded, documents });
  const port = (engine.address() as AddressInfo).port;
  const shipped = await readFile(join(REPOSITORY_ROOT, 'examples', 'configs', 'sweep.yaml'), 'utf8');
  await writeFile(inWorkspace('examples', 'configs', 'sweep.yaml'), shipped.replaceAll('127.0.0.1:8700', `127.0.0.1:${port}`));
}
async function stopEngine(): Promise<void> {
  await new Promise((resolve) => (engine === undefined ? resolve(undefined) : engine.close(resolve)));
  engine = undefined;
}

/** The run the deployed commands act on: support.jsonl submitted with --wait while the stack's functions run here. */
let deployedRun: Promise<{ runId: string; submitted: BuiltCliOutcome }> | undefined;
function submitOnce(args: readonly string[]): Promise<{ runId: string; submitted: BuiltCliOutcome }> {
  deployedRun ??= (async () => {
    stack = await startDeployedStack('docs-bucket');
    const submitting = assay(deployed(args));
    const runId = await stack.process('datasets/support/support.jsonl');
    return { runId, submitted: await submitting };
  })();
  return deployedRun;
}
/** A deploy.md command for the emulator's stack: its bucket, its endpoint. */
const deployed = (args: readonly string[]): string[] => [
  ...args.map((word) => (word === '<BucketName>' ? 'docs-bucket' : word)),
  '--aws-endpoint',
  stack?.endpoint ?? '',
];
const withRun = async (args: readonly string[]): Promise<string[]> => {
  const { runId } = await submitOnce(['submit', 'examples/datasets/support.jsonl', '--bucket', '<BucketName>', '--suite', 'support']);
  return deployed(args.map((word) => (word === 'RUN' ? runId : word)));
};

/** The lines of `page`'s first fenced block whose first line starts with `firstLine`. */
function shownBlock(page: string, firstLine: string): string[] {
  const blocks = readRepositoryFile(page).split(/^```[a-z]*$/m);
  const block = blocks.find((text) => text.trimStart().startsWith(firstLine)) ?? '';
  return block.trim().split('\n');
}

/** Seeded stand-ins for the files of docs/agreement.md's worked example: 43 topics, 11 with human labels, three judges, three runs. */
async function writeStandIns(): Promise<string[]> {
  const random = seededRandom(2019);
  const human: string[] = [];
  const judges: string[][] = [[], [], []];
  const runs: string[][] = [[], [], []];
  for (let topic = 1; topic <= 43; topic++) {
    for (let document = 1; document <= 12; document++) {
      const grade = random.nextBelow(4);
      if (topic % 4 === 1) human.push(`${topic} Q0 p${document} ${grade}`);
      judges.forEach((lines, judge) => {
        lines.push(
          `${topic} 0 p${document} ${random.nextBelow(judge + 2) === 0 ? random.nextBelow(4) : Math.min(3, grade + (judge === 0 ? 1 : 0))}`,
        );
      });
    }
    runs.forEach((lines, run) => {
      const order = Array.from({ length: 12 }, (_, index) => index + 1).sort(
        (left, right) => ((left * (run + 7) + topic) % 13) - ((right * (run + 7) + topic) % 13),
      );
      order.forEach((document, rank) => {
        lines.push(`${topic} Q0 p${document} ${rank + 1} ${(20 - rank).toFixed(1)} run${run}`);
      });
    });
  }
  await mkdir(inWorkspace('results'), { recursive: true });
  await mkdir(inWorkspace('runs'), { recursive: true });
  await writeFile(inWorkspace('human-11-topics.qrels'), `${human.join('\n')}\n`);
  const judgeFiles = [
    'dl2019_test_4prompts_llama70b.txt',
    'dl2019_test_4prompts_flant5large.txt',
    'dl2019_test_sun_then_decomposed_flant5large.txt',
  ];
  await Promise.all(judgeFiles.map((name, index) => writeFile(inWorkspace('results', name), `${(judges[index] ?? []).join('\n')}\n`)));
  const runFiles = ['input.ICT-BERT2.run', 'input.ICT-CKNRM_B.run', 'input.ICT-CKNRM_B50.run'].map((name) => join('runs', name));
  await Promise.all(runFiles.map((name, index) => writeFile(inWorkspace(name), `${(runs[index] ?? []).join('\n')}\n`)));
  return runFiles;
}

const SCENARIOS: Readonly<Record<string, Scenario>> = {
  'assay run examples/datasets/search-assistant.jsonl': async (args) => {
    const outcome = await assay(args);
    // README's summary table, row for row (the run id and paths differ from run to run).
    const rows = shownBlock('README.md', 'run r-').filter((line) => /^(response|retrieval)\//.test(line));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(outcome.stdout).toContain(`${row}\n`);
    // And every other line README shows the command print, once the run id and the folder it ran in are set aside.
    const normal = (text: string) => text.replaceAll(workspace.path, '/tmp/docs-check').replace(/r-[0-9a-f]{16}/g, 'r-<id>');
    const printed = new Set(normal(`${outcome.stdout}\n${outcome.stderr}`).split('\n'));
    const shown = shownBlock('README.md', 'run r-').map(normal);
    expect(shown.filter((line) => line !== '' && !printed.has(line))).toEqual([]);
    expect((await readdir(inWorkspace('assay-report'))).sort()).toEqual(REPORT_FILES);
    return outcome;
  },
  'assay run examples/datasets/search-assistant.jsonl --batch': async (args) => {
    // A server that speaks OpenAI's batch API on loopback, its job done by the first look at it.
    const server = await startOpenAiBatchServer({ oracle: catalogOracle, stepEveryMs: 50, linesPerStep: 1_000 });
    const outcome = await assay([...args, '--out', 'batch-report'], {
      OPENAI_API_KEY: 'sk-documented',
      OPENAI_BASE_URL: server.baseUrl,
    }).finally(() => server.close());
    expect(outcome.stderr).toMatch(/\nbatch: 1 job submitted \(\d+ requests\): batch_test1\n/);
    const report = await readReport('batch-report');
    expect(report.judge).toMatch(/^LLM judge gpt-4o-mini at 127\.0\.0\.1:\d+, temperature 0, cached, in batch jobs$/);
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(server.batches.size).toBe(1);
    return outcome;
  },
  'assay ir-metrics -q examples/trec/qrels.txt examples/trec/run-bm25.txt': async (args) => {
    const outcome = await assay(args);
    expect(outcome.stdout).toMatch(/^num_ret {15}\t101\t7\n/);
    expect(outcome.stdout).toContain('map                   \tall\t0.5608\n');
    return outcome;
  },
  'assay ir-metrics -m map -m ndcg_cut.10 examples/trec/qrels.txt examples/trec/run-bm25.txt': (args) => assay(args),
  'assay agreement --human examples/trec/qrels.txt --judge examples/trec/qrels-llm.txt --run examples/trec/run-bm25.txt --run examples/trec/run-dense.txt':
    (args) => assay(args),
  // The worked example's files are a public repository's, not shipped here: stand-ins of the same names, seeded,
  // check the command as written, its $(for ...) expanded as the shell would, one --run per file of runs/.
  'assay agreement --human human-11-topics.qrels --judge llama70b=results/dl2019_test_4prompts_llama70b.txt --judge flant5large=results/dl2019_test_4prompts_flant5large.txt --judge flant5large-decomposed=results/dl2019_test_sun_then_decomposed_flant5large.txt $(for f in runs/*.run; do printf -- \'--run %s \' "$f"; done) --judge-cost llama70b=20 --judge-cost flant5large=1 --judge-cost flant5large-decomposed=2':
    async (args) => {
      const runFiles = await writeStandIns();
      const from = args.indexOf('$(for');
      const to = args.findIndex((word) => word.endsWith('done)'));
      expect([from, to].every((index) => index > 0)).toBe(true);
      const outcome = await assay([...args.slice(0, from), ...runFiles.flatMap((file) => ['--run', file]), ...args.slice(to + 1)]);
      expect(outcome.stderr).toBe('');
      expect(outcome.stdout).toMatch(
        /== judges ranked by the corrected 95% interval of ndcg_cut_10 \(mean over the runs\) ==\njudge +width +human only +ratio +labelled +worth \(labels\) +bias +kappa +cost +labels per cost\n/,
      );
      for (const judge of ['llama70b', 'flant5large', 'flant5large-decomposed']) expect(outcome.stdout).toContain(`== judge ${judge} ==`);
      return outcome;
    },
  'assay validate examples/datasets/support.jsonl': (args) => assay(args),
  'assay validate examples/trec/qrels.txt examples/trec/run-bm25.txt examples/trec/run-dense.txt --queries examples/trec/topics.tsv':
    async (args) => {
      const outcome = await assay(args);
      expect(outcome.stdout).toContain('cases: 4\nengines: 2\n');
      expect(outcome.stdout).toMatch(/errors: 0\n$/);
      return outcome;
    },
  'assay run --qrels examples/trec/qrels.txt --run examples/trec/run-bm25.txt --run examples/trec/run-dense.txt': async (args) => {
    const outcome = await assay([...args, '--out', 'trec-report']);
    // The same numbers as `assay ir-metrics -m map -m ndcg_cut.10` shows in docs/trec.md.
    const report = await readReport('trec-report');
    expect(report.engines.bm25?.['retrieval/ground_truth/average_precision/average']).toBeCloseTo(0.5608, 4);
    expect(report.engines.bm25?.['retrieval/ground_truth/ndcg@10/average']).toBeCloseTo(0.6325, 4);
    expect(Object.keys(report.engines).sort()).toEqual(['bm25', 'dense']);
    return outcome;
  },
  'assay run examples/datasets/search-assistant.jsonl --config examples/configs/ci-gate.json --fail-under 0.9': async (args) => {
    const outcome = await assay([...args, '--out', 'gate-report']);
    expect(outcome.stderr).toMatch(/\nassay run: pass rate under --fail-under 0\.9: bm25 0\.5556 of 9 cases\n$/);
    const engines = (await readReport('gate-report')).engines;
    expect([engines.bm25?.['thresholds/pass/average'], engines.hybrid?.['thresholds/pass/average']]).toEqual([5 / 9, 1]);
    return outcome;
  },
  'assay engines --config examples/configs/sweep.yaml --query "rotate an access key"': async (args) => {
    await startEngine();
    const outcome = await assay(args);
    // docs/engines.md's hits, but for the time each search took.
    const shown = shownBlock('docs/engines.md', 'bm25@b=0.3 (http');
    expect(outcome.stdout).toMatch(/^bm25@b=0\.3 \(http, POST http:\/\/127\.0\.0\.1:\d+\/search\): 6 hits in [\d.]+ ms\n/);
    for (const hit of shown.filter((line) => /^ +\d+ /.test(line))) expect(outcome.stdout).toContain(`${hit}\n`);
    return outcome;
  },
  'assay run examples/datasets/queries.jsonl --config examples/configs/sweep.yaml': async (args) => {
    await startEngine();
    const outcome = await assay([...args, '--out', 'sweep-report']);
    expect(Object.keys((await readReport('sweep-report')).engines).sort()).toEqual(['bm25-title', 'bm25@b=0.3', 'bm25@b=0.75']);
    return outcome;
  },
  'assay compare before after --metric retrieval/ground_truth/ndcg@10': async (args) => {
    // docs/report.md's walk-through: the sweep, the engine restarted --degraded, the sweep again.
    const sweep = ['run', 'examples/datasets/queries.jsonl', '--config', 'examples/configs/sweep.yaml', '--suite', 'sweep'];
    await startEngine();
    expect((await assay([...sweep, '--out', 'before'])).exitCode).toBe(0);
    await startEngine(true);
    expect((await assay([...sweep, '--out', 'after'])).exitCode).toBe(0);
    const regressions = (await readReport('after')).comparison?.regressions ?? [];
    expect(
      regressions
        .filter((regression) => regression.metric === 'retrieval/ground_truth/ndcg@10')
        .map((regression) => regression.engine)
        .sort(),
    ).toEqual(['bm25@b=0.3', 'bm25@b=0.75']);
    const outcome = await assay(args);
    expect(outcome.stdout).toContain(`${shownBlock('docs/report.md', 'engine bm25@b=0.3').join('\n')}\n`);
    return outcome;
  },
  'assay submit examples/datasets/support.jsonl --bucket <BucketName> --suite support --wait': async (args) => {
    const { runId, submitted } = await submitOnce(args);
    expect(submitted.stdout).toBe(
      `submitted datasets/support/support.jsonl to docs-bucket; run ${runId}\nreport: reports/support/${runId}/report.json\n`,
    );
    return submitted;
  },
  'assay status RUN --bucket <BucketName>': async (args) => {
    const outcome = await assay(await withRun(args));
    expect(outcome.stdout).toMatch(
      /^run r-[0-9a-f]{16} \(suite support, datasets\/support\/support\.jsonl\): 4 cases, 4 evaluated, 0 failed, 0 pending; reported: reports\/support\/r-[0-9a-f]{16}\/report\.json\n$/,
    );
    return outcome;
  },
  'assay report RUN --bucket <BucketName> --out assay-report': async (args) => {
    const outcome = await assay(await withRun(args));
    expect((await readdir(inWorkspace('assay-report'))).sort()).toEqual(REPORT_FILES);
    expect(Object.keys((await readReport('assay-report')).engines).sort()).toEqual(['bm25', 'dense']);
    return outcome;
  },
  'assay baseline set RUN --suite support --bucket <BucketName>': async (args) => {
    const outcome = await assay(await withRun(args));
    expect(outcome.stdout).toMatch(/baseline of suite support/);
    return outcome;
  },
  'assay <command> --help': async () => {
    const help = await helpOf('');
    const commands = (help.stdout.split('Commands:\n')[1] ?? '')
      .split('\n')
      .flatMap((line) => (/^ {2}[a-z]/.test(line) ? [line.trim().split(' ')[0] ?? ''] : []));
    expect(commands.length).toBeGreaterThan(10);
    const names = commands.filter((command) => command !== 'help');
    const outcomes = await Promise.all(names.map(helpOf));
    expect(
      outcomes.map((outcome, index) => ({
        name: names[index],
        exitCode: outcome.exitCode,
        usage: outcome.stdout.startsWith(`Usage: assay ${names[index]} `),
      })),
    ).toEqual(names.map((name) => ({ name, exitCode: 0, usage: true })));
    return help;
  },
  'assay --version': async (args) => {
    const outcome = await assay(args);
    const { version } = JSON.parse(readRepositoryFile('package.json')) as { version: string };
    expect(outcome.stdout).toBe(`${version}\n`);
    return outcome;
  },
};

/** The commands the docs say exit with another code than 0. */
const EXIT_CODES: Readonly<Record<string, number>> = {
  'assay run examples/datasets/search-assistant.jsonl --config examples/configs/ci-gate.json --fail-under 0.9': 1,
};

/** The documented commands, each once, with the pages that show it. */
function byCommand(commands: readonly DocumentedCommand[]): { command: string; pages: string; shown: DocumentedCommand[] }[] {
  const grouped = new Map<string, DocumentedCommand[]>();
  for (const documented of commands) grouped.set(documented.command, [...(grouped.get(documented.command) ?? []), documented]);
  return [...grouped].map(([command, all]) => ({
    command,
    pages: [...new Set(all.map((one) => one.page))].join(', '),
    shown: all.filter((one) => one.shownOutput !== undefined),
  }));
}

const documented = documentedCommands().filter((one) => one.command !== 'assay');
const runnable = byCommand(documented.filter((one) => !one.synopsis));
const synopses = byCommand(documented.filter((one) => one.synopsis));

describe('the commands the docs show', () => {
  it('has a scenario for each command the docs show, and none for a command they no longer show', () => {
    expect(runnable.map(({ command }) => command).sort()).toEqual(Object.keys(SCENARIOS).sort());
  });

  // Titles in full (it.each cuts a value at 40 characters): several commands start alike.
  for (const { command, pages, shown } of runnable)
    it(`${pages}: ${command}`, async () => {
      // Act
      const outcome = await (SCENARIOS[command] ?? (() => Promise.reject(new Error(`no scenario for ${command}`))))(
        commandWords(command).slice(1),
      );

      // Assess: it did its work, and printed what the docs show
      const exitCode = EXIT_CODES[command] ?? 0;
      expect({ exitCode: outcome.exitCode, stderr: outcome.exitCode === exitCode ? '' : outcome.stderr }).toEqual({ exitCode, stderr: '' });
      for (const { shownOutput, truncated } of shown.map((one) => ({
        shownOutput: one.shownOutput ?? [],
        truncated: one.truncated === true,
      }))) {
        const text = `${shownOutput.join('\n')}\n`;
        if (truncated) expect(outcome.stdout.startsWith(text)).toBe(true);
        else expect(outcome.stdout).toBe(text);
      }
    }, 120_000);

  for (const { command, pages } of synopses)
    it(`${pages}: the options of ${command} are ones --help lists`, async () => {
      // Prepare: the command's words up to its first option or placeholder name it (`baseline set`)
      const words = commandWords(command).slice(1);
      const name = words
        .slice(
          0,
          words.findIndex((word) => !/^[a-z][a-z-]*$/.test(word)),
        )
        .join(' ');
      const options = [...command.matchAll(/(?<![\w-])(--?[a-z][a-z-]*)/g)].map((match) => match[1] ?? '');

      // Act
      const help = await helpOf(name);

      // Assess
      expect(help.exitCode).toBe(0);
      expect(options.filter((option) => !new RegExp(`(^|[ ,])${option}[ ,<\\n]`, 'm').test(help.stdout))).toEqual([]);
    });
});
