import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHangingUpServer } from '../support/misbehaving-servers.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const root = join(import.meta.dirname, '..', '..');
const DATASET = join(root, 'examples', 'datasets', 'search-assistant.jsonl');
const QRELS = join(root, 'examples', 'trec', 'qrels.txt');
const RUN = join(root, 'examples', 'trec', 'run-bm25.txt');

let folder: TempFolder;
/** Paths inside the scratch folder that the table's arguments name. */
let paths: {
  store: string;
  out: string;
  file: string;
  badYaml: string;
  credentialsConfig: string;
  aliasBomb: string;
  canaryConfig: string;
  missing: string;
  reportFolder: string;
  tsv: string;
  unnamedJsonl: string;
  gzipped: string;
};
beforeAll(async () => {
  folder = await createTempFolder();
  paths = {
    store: join(folder.path, 'store'),
    out: join(folder.path, 'out'),
    file: await folder.write('a-file', 'not a folder\n'),
    badYaml: await folder.write('bad.yaml', 'judges: [unclosed\n'),
    credentialsConfig: await folder.write('credentials.yaml', `judge:\n  base_url: http://judge-user:${URL_PASSWORD}@127.0.0.1:8000/v1\n`),
    // Nine levels of nine aliases: 9^9 strings if expanded.
    aliasBomb: await folder.write(
      'bomb.yaml',
      [
        'l0: &l0 [x, x, x, x, x, x, x, x, x]',
        ...Array.from({ length: 8 }, (_, level) => `l${level + 1}: &l${level + 1} [${Array(9).fill(`*l${level}`).join(', ')}]`),
      ].join('\n'),
    ),
    canaryConfig: await folder.write('canary-config.yaml', 'judges: []\ncanaries:\n  dataset: no-such-canary.jsonl\n'),
    missing: join(folder.path, 'missing.yaml'),
    reportFolder: folder.path,
    tsv: await folder.write('cases.tsv', 'request_id\trequest\tengine\nq1\thello\te\n'),
    unnamedJsonl: await folder.write('cases', `${JSON.stringify({ request_id: 'q1', request: 'hello', engine: 'e' })}\n`),
    gzipped: await folder.write('cases.jsonl.gz', gzipSync(`${JSON.stringify({ request_id: 'q1', request: 'hello', engine: 'e' })}\n`)),
  };
});
afterAll(async () => {
  await folder.remove();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

type Paths = typeof paths;
interface BadInvocation {
  readonly args: (paths: Paths) => string[];
  readonly message: RegExp;
  readonly environment?: Record<string, string>;
}

const RUN_ID = 'r-0000000000000000';
/** The password of the base URLs with credentials, which no message may repeat. */
const URL_PASSWORD = 'Pw-Zq81-url-secret';
const run = (paths: Paths, ...extra: string[]) => ['run', DATASET, '--store', paths.store, '--out', paths.out, ...extra];

const BAD_INVOCATIONS: Record<string, BadInvocation> = {
  'run of a dataset whose name tells no format, a TSV': {
    args: (p) => ['run', p.tsv, '--store', p.store, '--out', p.out],
    message:
      /^assay run: Cannot tell the format of the dataset .*cases\.tsv from its name: name it \.jsonl, \.json or \.csv; a tab-separated file named \.csv is read as one/,
  },
  'run of JSONL in a file without an extension': {
    args: (p) => ['run', p.unnamedJsonl, '--store', p.store, '--out', p.out],
    message:
      /^assay run: Cannot tell the format of the dataset .*\/cases from its name: .*; its first line reads as JSONL: name it \.jsonl$/,
  },
  'run of a gzip-compressed dataset': {
    args: (p) => ['run', p.gzipped, '--store', p.store, '--out', p.out],
    message:
      /^assay run: .*cases\.jsonl\.gz: the file is gzip-compressed \(it starts with the bytes 1F 8B\); assay reads UTF-8 text \(fix: decompress it first/,
  },
  'run of a qrels file given as the dataset': {
    args: (p) => ['run', QRELS, '--store', p.store, '--out', p.out],
    message:
      /^assay run: Cannot tell the format of the dataset .*qrels\.txt from its name: .*; it reads as a TREC qrels file, which goes with --qrels QRELS --run RUN$/,
  },
  'run --concurrency abc': {
    args: (p) => run(p, '--concurrency', 'abc'),
    message: /^assay run: --concurrency got "abc"; expected an integer from 1 to 1000$/,
  },
  'run --concurrency -3': {
    args: (p) => run(p, '--concurrency', '-3'),
    message: /^assay run: --concurrency got "-3"; expected an integer/,
  },
  'run --concurrency 1000000': {
    args: (p) => run(p, '--concurrency', '1000000'),
    message: /^assay run: --concurrency got "1000000"; expected an integer from 1 to 1000$/,
  },
  'run --threads 100000': {
    args: (p) => run(p, '--threads', '100000'),
    message: /^assay run: --threads got "100000"; expected an integer from 1 to 64$/,
  },
  'run --threads 0': { args: (p) => run(p, '--threads', '0'), message: /^assay run: --threads got "0"; expected an integer from 1 to 64$/ },
  'run --judges with an unknown id': {
    args: (p) => run(p, '--judges', 'nope'),
    message: /^assay run: --judges: field "judges\[0\]": unknown judge "nope" \(fix: use one of chunk_relevance, /,
  },
  'run --judges with no id': {
    args: (p) => run(p, '--judges', ''),
    message: /^assay run: --judges got ""; expected comma-separated judge ids/,
  },
  'run --config that does not exist': {
    args: (p) => run(p, '--config', p.missing),
    message: /^assay run: The config file .*missing\.yaml does not exist$/,
  },
  'run --config that is not YAML': {
    args: (p) => run(p, '--config', p.badYaml),
    message: /^assay run: .*bad\.yaml: not valid YAML: .* at line 2, column 1 \(fix: correct the syntax\)$/,
  },
  'run --config whose canary set does not exist, read beside the config': {
    args: (p) => run(p, '--config', p.canaryConfig),
    message: /^assay run: The canary set \(canaries\.dataset\) file .*\/no-such-canary\.jsonl does not exist$/,
  },
  'run --config that is a YAML alias bomb': {
    args: (p) => run(p, '--config', p.aliasBomb),
    message: /^assay run: .*bomb\.yaml: not usable YAML: its aliases \(\*name\) expand to more than 100 copies/,
  },
  'run --aws-endpoint that is not a URL': {
    args: (p) => run(p, '--aws-endpoint', 'not-a-url'),
    message: /^assay run: --aws-endpoint got "not-a-url"; expected an http or https URL/,
  },
  'run --suite longer than 100 characters': {
    args: (p) => run(p, '--suite', 's'.repeat(101)),
    message: /^assay run: --suite got "s{101}"; expected letters, digits, "\.", "_" or "-", up to 100 characters$/,
  },
  'run --suite with a slash': {
    args: (p) => run(p, '--suite', 'a/b'),
    message: /^assay run: --suite got "a\/b"; expected letters, digits/,
  },
  'run a dataset that does not exist': {
    args: (p) => ['run', p.missing, '--store', p.store],
    message: /^assay run: The dataset file .* does not exist$/,
  },
  'run --out that is a file': {
    args: (p) => ['run', DATASET, '--store', p.store, '--out', p.file],
    message: /^assay run: --out .*a-file cannot be used \(a file is in the way\); expected a folder/,
  },
  'run --store that is a file': {
    args: (p) => ['run', DATASET, '--store', p.file, '--out', p.out],
    message: /^assay run: --store .*a-file cannot be used \(a file is in the way\)/,
  },
  'run --out with a name longer than a file system allows': {
    args: (p) => ['run', DATASET, '--store', p.store, '--out', join(p.out, 'o'.repeat(300))],
    message: /^assay run: --out .* cannot be used \(a name in the path is longer than the file system allows, 255 bytes on most\)/,
  },
  'run --out below a file': {
    args: (p) => ['run', DATASET, '--store', p.store, '--out', join(p.file, 'report')],
    message: /^assay run: --out .* cannot be used \(a file is in the way\)/,
  },
  'run with OPENAI_BASE_URL that is not a URL': {
    args: (p) => run(p),
    environment: { OPENAI_API_KEY: 'sk-test-usage-errors', OPENAI_BASE_URL: 'not a url' },
    message: /^assay run: OPENAI_BASE_URL got "not a url"; expected an http or https URL/,
  },
  'run with OPENAI_BASE_URL that holds a user and password': {
    args: (p) => run(p),
    environment: { OPENAI_API_KEY: 'sk-test-usage-errors', OPENAI_BASE_URL: `http://judge-user:${URL_PASSWORD}@127.0.0.1:8000/v1` },
    message:
      /^assay run: OPENAI_BASE_URL holds a user name or password \(user:password@ before the host\); give the URL without them \(http:\/\/127\.0\.0\.1:8000\/v1\) and put the key in the OPENAI_API_KEY environment variable, which is sent as a bearer token$/,
  },
  'run --config whose judge base_url holds a user and password': {
    args: (p) => run(p, '--config', p.credentialsConfig),
    environment: { OPENAI_API_KEY: 'sk-test-usage-errors' },
    message:
      /^assay run: .*credentials\.yaml: field "judge\.base_url": holds a user name or password \(user:password@ before the host\) \(fix: give the URL without them and put the key in the OPENAI_API_KEY environment variable, which is sent as a bearer token\)$/,
  },
  'run --max-failed abc': {
    args: (p) => run(p, '--max-failed', 'abc'),
    message:
      /^assay run: --max-failed got "abc"; expected a number of cases from 0 and up \(e\.g\. 3\) or a percentage of the cases from 0% to 100% \(e\.g\. 5%\)$/,
  },
  'run --max-failed 150%': {
    args: (p) => run(p, '--max-failed', '150%'),
    message: /^assay run: --max-failed got "150%"; expected a number of cases from 0 and up/,
  },
  'run --max-failed -1': {
    args: (p) => run(p, '--max-failed', '-1'),
    message: /^assay run: --max-failed got "-1"; expected a number of cases from 0 and up/,
  },
  'run with an unknown option': {
    args: (p) => run(p, '--bogus'),
    message: /^assay run: unknown option '--bogus' \(Did you mean --corpus\?\)$/,
  },
  'run without a dataset': {
    args: () => ['run'],
    message: /^assay run: Give a dataset file, or a TREC collection with --qrels QRELS --run RUN$/,
  },
  'redrive --concurrency abc': {
    args: (p) => ['redrive', RUN_ID, '--store', p.store, '--concurrency', 'abc'],
    message: /^assay redrive: --concurrency got "abc"/,
  },
  'redrive --concurrency 1001': {
    args: (p) => ['redrive', RUN_ID, '--store', p.store, '--concurrency', '1001'],
    message: /^assay redrive: --concurrency got "1001"; expected an integer from 1 to 1000$/,
  },
  'redrive --max-failed 2.5': {
    args: (p) => ['redrive', RUN_ID, '--store', p.store, '--max-failed', '2.5'],
    message: /^assay redrive: --max-failed got "2\.5"; expected a number of cases from 0 and up/,
  },
  'resume --max-failed 101%': {
    args: (p) => ['resume', RUN_ID, '--store', p.store, '--max-failed', '101%'],
    message: /^assay resume: --max-failed got "101%"; expected a number of cases/,
  },
  'engines --concurrency 5000': {
    args: (p) => ['engines', '--config', p.missing, '--query', 'q', '--concurrency', '5000'],
    message: /^assay engines: --concurrency got "5000"; expected an integer from 1 to 1000$/,
  },
  'redrive --aws-endpoint that is not a URL': {
    args: () => ['redrive', RUN_ID, '--aws-endpoint', 'nope'],
    message: /^assay redrive: --aws-endpoint got "nope"/,
  },
  'redrive --out that is a file': {
    args: (p) => ['redrive', RUN_ID, '--store', p.store, '--out', p.file],
    message: /^assay redrive: --out .* cannot be used/,
  },
  'baseline set --aws-endpoint that is not a URL': {
    args: () => ['baseline', 'set', RUN_ID, '--bucket', 'b', '--aws-endpoint', 'nope'],
    message: /^assay baseline set: --aws-endpoint got "nope"/,
  },
  'baseline set --suite with a slash': {
    args: (p) => ['baseline', 'set', RUN_ID, '--store', p.store, '--suite', 'a/b'],
    message: /^assay baseline set: --suite got "a\/b"/,
  },
  'baseline set with a path for a run id': {
    args: (p) => ['baseline', 'set', '../../etc', '--store', p.store],
    message: /^assay baseline set: the run id got "\.\.\/\.\.\/etc"; expected r- and 16 hexadecimal digits/,
  },
  'baseline with an unknown subcommand': {
    args: () => ['baseline', 'get'],
    message: /^assay baseline: unknown command 'get' \(Did you mean set\?\)$/,
  },
  'submit --aws-endpoint that is not a URL': {
    args: () => ['submit', DATASET, '--bucket', 'b', '--aws-endpoint', 'nope'],
    message: /^assay submit: --aws-endpoint got "nope"/,
  },
  'submit --timeout abc': {
    args: () => ['submit', DATASET, '--bucket', 'b', '--wait', '--timeout', 'abc', '--aws-endpoint', 'nope'],
    message: /^assay submit: --timeout got "abc"; expected a number of minutes above 0$/,
  },
  'submit --max-failed without --wait': {
    args: () => ['submit', DATASET, '--bucket', 'b', '--max-failed', '3', '--aws-endpoint', 'http://127.0.0.1:1'],
    message: /^assay submit: --max-failed needs --wait: without it assay submit does not wait for the report$/,
  },
  'submit --wait --max-failed 5%%': {
    args: () => ['submit', DATASET, '--bucket', 'b', '--wait', '--max-failed', '5%%', '--aws-endpoint', 'http://127.0.0.1:1'],
    message: /^assay submit: --max-failed got "5%%"; expected a number of cases/,
  },
  'submit without --bucket': {
    args: () => ['submit', DATASET],
    message: /^assay submit: required option '--bucket <name>' not specified$/,
  },
  'status --aws-endpoint that is not a URL': {
    args: () => ['status', RUN_ID, '--bucket', 'b', '--aws-endpoint', 'nope'],
    message: /^assay status: --aws-endpoint got "nope"/,
  },
  'status with a store folder that does not exist': {
    args: (p) => ['status', RUN_ID, '--store', p.missing],
    message: /^assay status: No store at .*missing\.yaml; give the folder assay run wrote with --store, or a bucket with --bucket$/,
  },
  'status with both a bucket and a store': {
    args: (p) => ['status', RUN_ID, '--bucket', 'b', '--store', p.store],
    message: /^assay status: --store names a local folder and --bucket or --aws-endpoint a bucket; give one or the other$/,
  },
  'status with a run id that is not one': {
    args: () => ['status', 'latest', '--bucket', 'b', '--aws-endpoint', 'http://127.0.0.1:1'],
    message: /^assay status: the run id got "latest"; expected r- and 16 hexadecimal digits/,
  },
  'report --aws-endpoint that is not a URL': {
    args: (p) => ['report', RUN_ID, '--bucket', 'b', '--out', p.out, '--aws-endpoint', 'nope'],
    message: /^assay report: --aws-endpoint got "nope"/,
  },
  'report --out that is a file': {
    args: (p) => ['report', RUN_ID, '--bucket', 'b', '--out', p.file, '--aws-endpoint', 'http://127.0.0.1:1'],
    message: /^assay report: --out .* cannot be used/,
  },
  'ir-metrics -l abc': {
    args: () => ['ir-metrics', '-l', 'abc', QRELS, RUN],
    message: /^assay ir-metrics: Expected -l to be an integer from 0 and up, got "abc"$/,
  },
  'ir-metrics --gain with an unknown scheme': {
    args: () => ['ir-metrics', '--gain', 'cubic', QRELS, RUN],
    message: /^assay ir-metrics: option '--gain <scheme>' argument 'cubic' is invalid\. Allowed choices are linear, exponential\.$/,
  },
  'validate --format with an unknown format': {
    args: () => ['validate', DATASET, '--format', 'xml'],
    message: /^assay validate: option '--format <format>' argument 'xml' is invalid/,
  },
  'judges --config that is not YAML': {
    args: (p) => ['judges', '--config', p.badYaml],
    message: /^assay judges: .*bad\.yaml: not valid YAML: /,
  },
  'compare --alpha out of range': {
    args: (p) => ['compare', p.reportFolder, p.reportFolder, '--alpha', '3'],
    message: /^assay compare: Expected --alpha to be a number between 0 and 1/,
  },
  'an unknown command': { args: () => ['frobnicate'], message: /^assay: unknown command 'frobnicate'$/ },
};

describe('usage errors', () => {
  it.each(Object.entries(BAD_INVOCATIONS))('%s: one line on stderr, no stack trace, exit code 2', async (_described, invocation) => {
    // Prepare
    for (const [name, value] of Object.entries(invocation.environment ?? {})) vi.stubEnv(name, value);

    // Act
    const result = await runCli(invocation.args(paths));

    // Assess
    expect(result.stderr).toMatch(/^[^\n]*\n$/);
    expect(result.stderr.trimEnd()).toMatch(invocation.message);
    expect(result.stderr).not.toContain('    at ');
    expect(result.exitCode).toBe(2);
  });

  it('checks --out before any work: a file as --out leaves no run in the store', async () => {
    // Prepare
    const store = join(folder.path, 'untouched-store');

    // Act
    const result = await runCli(['run', DATASET, '--store', store, '--out', paths.file]);

    // Assess
    expect(result.exitCode).toBe(2);
    const stored = await readdir(store).catch(() => []);
    expect(stored).not.toContain('runs');
    expect(stored).not.toContain('datasets');
  });
});

describe('unexpected errors, as the installed command prints them', () => {
  const assay = (args: readonly string[], environment: Record<string, string> = {}) =>
    promisify(execFile)(join(root, 'cli', 'bin.js'), [...args], {
      cwd: root,
      env: { ...process.env, NODE_NO_WARNINGS: '1', ...environment },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);

  it('prints one line with a hint and exits 1; the stack trace only with ASSAY_DEBUG=1', async () => {
    // Prepare: an endpoint that hangs up on every request (a broken proxy) is an outage, not a usage error
    const endpoint = await startHangingUpServer();
    const args = ['status', RUN_ID, '--bucket', 'b', '--aws-endpoint', endpoint.origin];
    const credentials = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1', AWS_MAX_ATTEMPTS: '1' };

    // Act
    const [plain, debug] = await Promise.all([assay(args, credentials), assay(args, { ...credentials, ASSAY_DEBUG: '1' })]).finally(() =>
      endpoint.close(),
    );

    // Assess
    expect(plain).toMatchObject({ code: 1 });
    expect(plain.stderr).toMatch(
      /^assay status: socket hang up \(unexpected error; run again with --debug or ASSAY_DEBUG=1 to see its stack trace\)\n$/,
    );
    expect(debug).toMatchObject({ code: 1 });
    expect(debug.stderr).toContain('    at ');
  });

  it('prints a usage error of the installed command on one line', async () => {
    const failure = await assay(['run', DATASET, '--aws-endpoint', 'not-a-url']);
    expect(failure).toMatchObject({
      code: 2,
      stderr: 'assay run: --aws-endpoint got "not-a-url"; expected an http or https URL such as http://127.0.0.1:4566\n',
    });
  });
});
