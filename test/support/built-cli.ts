import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGES_BY_FILE } from '../../scripts/build-cli.js';
import { REPOSITORY_ROOT } from './markdown.js';
import type { CliOutcome } from './run-cli.js';
import { spawnSmall, type SpawnedProcess } from './small-spawner.js';

/**
 * `assay` as a user runs it: `cli/bin.js` over the build in `dist/cli/` (the
 * vitest global setup builds it from the current source), in a process of its
 * own. The source-level `runCli` cannot see what the build gets wrong, such as
 * a package that loses its named exports when bundled.
 */
export const BUILT_BIN = join(REPOSITORY_ROOT, 'cli', 'bin.js');
const RECORDER = pathToFileURL(join(import.meta.dirname, 'record-resolutions', 'register.mjs')).href;

/**
 * Variables of the developer's shell that would change what a command does: a run must not reach a real judge or account,
 * and a proxy set there (which assay says it does not use) must not change what a test reads.
 */
const AMBIENT_VARIABLES = /^(OPENAI_|AZURE_OPENAI_|ASSAY_|AWS_)|^(https?|all|no)_proxy$/i;

export interface BuiltCliOptions {
  /** The working folder (default: the repository). */
  readonly cwd?: string;
  /** Variables on top of this process's own, less the judge, assay and AWS ones (unless `inheritEnvironment`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Pass this process's whole environment (what `vi.stubEnv` set included), as a drop-in for `runCli`. */
  readonly inheritEnvironment?: boolean;
  /** Records every module the process resolves, for `BuiltCliOutcome.resolved`. */
  readonly recordResolutions?: string;
  /** Called with the process once started: to read its output as it comes, or to signal it. */
  readonly started?: (child: SpawnedProcess) => void;
}

export interface BuiltCliOutcome extends CliOutcome {
  /** The URL of every module the process resolved, when `recordResolutions` named a file. */
  readonly resolved: readonly string[];
}

/** Runs `assay ARGS...` through the built bin and waits for it to exit. */
export async function runBuiltCli(args: readonly string[], options: BuiltCliOptions = {}): Promise<BuiltCliOutcome> {
  const environment = options.inheritEnvironment === true ? { ...process.env } : withoutAmbient(process.env);
  if (options.recordResolutions !== undefined) await writeFile(options.recordResolutions, '');
  const recording = options.recordResolutions === undefined ? [] : ['--import', RECORDER];
  // Started by the small spawner: from this worker, each start would copy a gigabyte's page tables.
  const child = spawnSmall(process.execPath, [...recording, BUILT_BIN, ...args], {
    cwd: options.cwd ?? REPOSITORY_ROOT,
    env: {
      ...environment,
      NODE_NO_WARNINGS: '1',
      ...options.env,
      ...(options.recordResolutions === undefined ? {} : { RECORD_RESOLUTIONS_TO: options.recordResolutions }),
    },
  });
  options.started?.(child);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
  const resolved = options.recordResolutions === undefined ? [] : await resolutionsIn(options.recordResolutions);
  return { exitCode, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), resolved };
}

function withoutAmbient(environment: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) if (value !== undefined && !AMBIENT_VARIABLES.test(name)) kept[name] = value;
  return kept;
}

async function resolutionsIn(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  return lines.map((line) => line.split('\t')[1] ?? '');
}

/**
 * The packages a process of the built CLI loaded, sorted: those carried by the
 * built files it loaded (the build bundles most packages in, and writes which
 * file carries which beside it), and those it resolved from node_modules (the
 * AWS SDK, left out of the bundle).
 */
export async function packagesLoaded(resolved: readonly string[]): Promise<string[]> {
  const byFile = JSON.parse(await readFile(join(REPOSITORY_ROOT, 'dist', 'cli', PACKAGES_BY_FILE), 'utf8')) as Record<string, string[]>;
  const built = `${pathToFileURL(join(REPOSITORY_ROOT, 'dist', 'cli')).href}/`;
  const carried = resolved.filter((url) => url.startsWith(built)).flatMap((url) => byFile[url.slice(built.length)] ?? []);
  const fromModules = resolved.flatMap((url) => {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    return match?.[1] === undefined ? [] : [match[1]];
  });
  return [...new Set([...carried, ...fromModules])].sort();
}
