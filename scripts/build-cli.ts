import { build, type Metafile, type Plugin } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');

/** Where the built CLI goes; cli/bin.js runs `main.js` from here. Ignored by git. */
export const BUILT_CLI_FOLDER = join(root, 'dist', 'cli');

/**
 * Packages left to node_modules at run time: the AWS SDK's clients are large
 * and loaded only by the commands that reach AWS, lazily.
 */
const EXTERNAL_PACKAGES = ['@aws-sdk/*', '@smithy/*'];

/**
 * Bundles the CLI to JavaScript so `assay` starts without compiling
 * TypeScript. The packages a command uses on every run (zod, openai, yaml,
 * commander, ...) are bundled in: resolving and loading them one module file
 * at a time from node_modules cost about a quarter of a second of every start.
 * Code splitting gives each command's lazily imported module its own chunk,
 * so a command loads only its own code and dependencies. The bundled CommonJS
 * packages call `require`, which an ES module lacks: the banner makes one.
 */
export async function buildCli(): Promise<void> {
  // Chunk names carry content hashes: clear the old ones rather than let them pile up.
  rmSync(BUILT_CLI_FOLDER, { recursive: true, force: true });
  const result = await build({
    // The worker threads' entries are entries of their own: a worker thread starts from a file.
    // Each is built beside main.js under a fixed name, which is where the threads look for it (cli/threads/built-entry.ts).
    entryPoints: {
      main: join(root, 'cli', 'main.ts'),
      'ir-metrics-worker': join(root, 'cli', 'threads', 'ir-metrics-thread-entry.ts'),
      'pipeline-thread': join(root, 'cli', 'threads', 'pipeline-thread-entry.ts'),
    },
    outdir: BUILT_CLI_FOLDER,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
    metafile: true,
    plugins: [englishZodOnly],
  });
  writeFileSync(join(BUILT_CLI_FOLDER, PACKAGES_BY_FILE), `${JSON.stringify(packagesByOutputFile(result.metafile), null, 1)}\n`);
}

/**
 * zod's messages in English only: `import { z } from 'zod'` brings every
 * locale zod has (a third of its source, 300 KB that each command compiled
 * at start), since `z.locales` keeps them all reachable; the code sets no
 * other locale, and zod sets English itself.
 */
const englishZodOnly: Plugin = {
  name: 'english-zod-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`)
        ? { path: join(args.resolveDir, '..', 'locales', 'en-only.js'), namespace: 'english-zod-only', pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'english-zod-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(String(args.pluginData), '..', 'locales', 'en.js'))};\n`,
      resolveDir: String(args.pluginData),
    }));
  },
};

/**
 * The file in the build naming the packages each built file carries: with the
 * packages bundled in, which package a command loads shows only as the built
 * files it loads.
 */
export const PACKAGES_BY_FILE = 'packages-by-file.json';

function packagesByOutputFile(metafile: Metafile): Record<string, string[]> {
  const byFile: Record<string, string[]> = {};
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (!output.endsWith('.js')) continue;
    const packages = new Set(Object.keys(inputs).flatMap((input) => packageOf(input) ?? []));
    byFile[relative(BUILT_CLI_FOLDER, join(root, output))] = [...packages].sort();
  }
  return byFile;
}

/** `node_modules/@scope/name/...` or `node_modules/name/...`: the package's name; undefined for the project's own files. */
function packageOf(input: string): string | undefined {
  const marker = 'node_modules/';
  const at = input.lastIndexOf(marker);
  if (at < 0) return undefined;
  const parts = input.slice(at + marker.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildCli();
