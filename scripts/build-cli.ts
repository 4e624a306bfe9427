import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');

/** Where the built CLI goes; cli/bin.js runs `main.js` from here. Ignored by git. */
export const BUILT_CLI_FOLDER = join(root, 'dist', 'cli');

/**
 * Bundles the CLI to JavaScript so `assay` starts without compiling
 * TypeScript. Packages stay external (node_modules resolves them at run time),
 * and code splitting gives each command's lazily imported module its own
 * chunk, so a command loads only its own code and dependencies.
 */
export async function buildCli(): Promise<void> {
  // Chunk names carry content hashes: clear the old ones rather than let them pile up.
  rmSync(BUILT_CLI_FOLDER, { recursive: true, force: true });
  await build({
    // The worker threads' entries are entries of their own: a worker thread starts from a file.
    entryPoints: [join(root, 'cli', 'main.ts'), join(root, 'cli', 'ir-metrics-worker.ts'), join(root, 'cli', 'pipeline-thread.ts')],
    outdir: BUILT_CLI_FOLDER,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildCli();
