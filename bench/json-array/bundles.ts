import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');
/** Where the splitter lives today, and where it lived before the dataset was read in rooms by concern. */
const SPLITTER_PATHS = ['shared/readers/json-array-splitter.ts', 'shared/dataset/json-array-splitter.ts'];

/**
 * Builds the loader (load.ts) as plain JavaScript twice into `folder`: with
 * today's splitter (`current.mjs`) and with the splitter of git revision
 * `reference` (`reference.mjs`), so both start as fast as stream-json's
 * loader and differ only in the splitter. Returns the two paths.
 */
export async function buildLoaders(into: string, reference: string): Promise<{ current: string; reference: string }> {
  const folder = resolve(into);
  mkdirSync(folder, { recursive: true });
  const referenceSplitter = join(folder, 'reference-json-array-splitter.ts');
  const source = splitterAt(reference);
  // Its own imports point back to its siblings, in shared/readers/ today, from wherever the copy lives.
  writeFileSync(referenceSplitter, source.replaceAll("from './", `from '${join(root, 'shared', 'readers')}/`));
  const paths = { current: join(folder, 'current.mjs'), reference: join(folder, 'reference.mjs') };
  await bundle(paths.current, undefined);
  await bundle(paths.reference, referenceSplitter);
  return paths;
}

function splitterAt(revision: string): string {
  for (const path of SPLITTER_PATHS) {
    try {
      return execFileSync('git', ['show', `${revision}:${path}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      // Not at this path in that revision: try where it lived before.
    }
  }
  throw new Error(`No JSON array splitter in revision ${revision} (looked at ${SPLITTER_PATHS.join(', ')})`);
}

async function bundle(outfile: string, splitter: string | undefined): Promise<void> {
  await build({
    entryPoints: [join(import.meta.dirname, 'load.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
    plugins:
      splitter === undefined
        ? []
        : [
            {
              name: 'reference-splitter',
              setup(builder) {
                builder.onResolve({ filter: /json-array-splitter\.js$/ }, () => ({ path: splitter }));
              },
            },
          ],
  });
}
