import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { packagesLoaded, runBuiltCli } from '../support/built-cli.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startOpenAiTestServer } from '../support/openai-test-server.js';
import { nights, reportNights } from '../support/reported-suite.js';
import { createTempFolder } from '../support/temp-folder.js';

/**
 * The built CLI loads a command's dependencies only when that command runs:
 * each case starts `cli/bin.js` as a user does, with module hooks that record
 * every module the process resolves (test/support/record-resolutions), and
 * checks which packages were among them. The build is fresh: the vitest
 * global setup builds it from the current source.
 */
const root = REPOSITORY_ROOT;
const fixture = (name: string): string => join(root, 'test', 'fixtures', 'trec-eval', name);

/** Packages that cost seconds to load and that only some commands need. */
const HEAVY_PACKAGES = ['@aws-sdk', 'openai', 'aws-cdk-lib'] as const;

interface Started {
  readonly stdout: string;
  readonly stderr: string;
  /** The URL of every module the process resolved. */
  readonly resolved: readonly string[];
}

async function startCli(args: readonly string[], environment: Readonly<Record<string, string>> = {}): Promise<Started> {
  const folder = await createTempFolder();
  onTestFinished(() => folder.remove());
  return runBuiltCli(args, { env: environment, recordResolutions: join(folder.path, 'resolved.tsv') });
}

/** Heavy packages the process loaded: resolved from node_modules, or carried by a built file it loaded (`@aws-sdk` stands for all its clients). */
async function heavyPackagesIn(resolved: readonly string[]): Promise<string[]> {
  const loaded = await packagesLoaded(resolved);
  return HEAVY_PACKAGES.filter((name) => loaded.some((loadedName) => loadedName === name || loadedName.startsWith(`${name}/`)));
}

describe('the built CLI starts without the heavy packages it does not need', () => {
  it.each([
    { name: '--version', args: ['--version'], prints: '0.1.0\n' },
    { name: '--help', args: ['--help'], prints: 'ir-metrics [options] <qrels> <runs...>' },
    { name: 'help ir-metrics', args: ['help', 'ir-metrics'], prints: 'Usage: assay ir-metrics' },
    {
      name: 'ir-metrics -q',
      args: ['ir-metrics', '-q', fixture('qrels.test'), fixture('results.test')],
      prints: 'P_5                   \t301\t0.0000\n',
    },
    {
      name: 'ir-metrics with two runs',
      args: ['ir-metrics', fixture('qrels.test'), fixture('results.test'), fixture('results.trunc')],
      prints: 'num_q                 \tall\t2\n',
    },
    { name: 'run --help', args: ['run', '--help'], prints: 'Usage: assay run' },
  ])('$name', async ({ args, prints }) => {
    // Act
    const started = await startCli(args);
    // Assess: the command ran, from the build (not the TypeScript fallback), and no heavy package was resolved.
    expect(started.stdout).toContain(prints);
    expect(started.stderr).toBe('');
    expect(started.resolved).toContain(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
    expect(await heavyPackagesIn(started.resolved)).toEqual([]);
  });

  it.each([{ name: 'submit --help', args: ['submit', '--help'], loads: ['@aws-sdk'] }])(
    'still loads what a command needs: $name',
    async ({ args, loads }) => {
      // Act
      const started = await startCli(args);
      // Assess: the recording sees these packages, so their absence above means something.
      expect(started.stdout).toContain(`Usage: assay ${args[0]}`);
      expect(await heavyPackagesIn(started.resolved)).toEqual(loads);
    },
  );

  it('runs an embedded run without the AWS SDK, nor the openai SDK when no judge calls out', async () => {
    // Prepare
    const folder = await createTempFolder();
    onTestFinished(() => folder.remove());

    // Act: TREC input through the whole embedded pipeline (local folder store, in-process queues)
    const started = await startCli([
      'run',
      '--qrels',
      fixture('qrels.test'),
      '--run',
      fixture('results.test'),
      '--store',
      join(folder.path, 'store'),
      '--out',
      join(folder.path, 'out'),
    ]);

    // Assess: the report is written, and only the S3/SQS adapters or engines that ask AWS would load the SDK; only an LLM judge's first call, the openai SDK
    expect(started.stdout).toContain(join(folder.path, 'out', 'report.json'));
    expect(await heavyPackagesIn(started.resolved)).toEqual([]);
  });

  it('rebuilds the history of a store folder without the AWS SDK, which only a bucket loads', async () => {
    // Prepare: a store folder with a reported run
    const folder = await createTempFolder();
    onTestFinished(() => folder.remove());
    await reportNights(new LocalFolderStore(join(folder.path, 'store')), 'nightly', nights(1));

    // Act
    const started = await startCli(['history', 'rebuild', '--suite', 'nightly', '--store', join(folder.path, 'store')]);

    // Assess
    expect(started.stdout).toContain('history of suite nightly: 1 run');
    expect(await heavyPackagesIn(started.resolved)).toEqual([]);
  });

  it('runs LLM judges through the OpenAI path without the AWS SDK, which only Bedrock judges load', async () => {
    // Prepare
    const folder = await createTempFolder();
    onTestFinished(() => folder.remove());
    const server = await startOpenAiTestServer({ oracle: catalogOracle });
    onTestFinished(() => server.close());
    const judgeEnvironment = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };

    // Act
    const started = await startCli(
      [
        'run',
        'examples/datasets/search-assistant.jsonl',
        '--judges',
        'chunk_relevance',
        '--store',
        join(folder.path, 'store'),
        '--out',
        join(folder.path, 'out'),
      ],
      judgeEnvironment,
    );

    // Assess: the judges were asked, and the Bedrock client with its SDK never resolved
    expect(started.stdout).toContain('LLM judge judge-model at 127.0.0.1');
    expect(server.answered()).toBeGreaterThan(0);
    expect(await heavyPackagesIn(started.resolved)).toEqual(['openai']);
    expect(started.resolved.some((url) => url.includes('bedrock-judge-client'))).toBe(false);
  });
});
