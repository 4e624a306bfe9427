import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commentsOf,
  isThere,
  pathsNamedInComments,
  sourceFiles,
  topLevelFolders,
  type RepositoryFiles,
} from '../../support/comment-paths.js';
import { REPOSITORY_ROOT } from '../../support/markdown.js';

const FOLDERS = ['cli', 'docs', 'shared', 'test'];

/** Files held in memory, by path from the repository's root; a folder exists when a file is in it. */
function filesOf(paths: readonly string[]): RepositoryFiles {
  return {
    exists: (path) => paths.some((known) => known === path || known.startsWith(path.endsWith('/') ? path : `${path}/`)),
    hasFileNamed: (name) => paths.some((known) => basename(known) === name),
  };
}

/** The paths of a text's comments that `files` does not hold, as `line: path`. */
function missingIn(file: string, source: string, files: RepositoryFiles): string[] {
  return pathsNamedInComments(source, FOLDERS)
    .filter((named) => !isThere(file, named, files))
    .map((named) => `${named.line}: ${named.path}`);
}

/**
 * Paths named in comments of files another part of issue 33 owns (the TREC
 * readers), stale until that work lands; each must still be found, so the
 * list cannot outlive the staleness it excuses.
 */
const KNOWN_STALE: readonly string[] = [];

describe('commentsOf', () => {
  it('finds line and block comments with their lines, not comment marks in strings, templates or patterns', () => {
    // Prepare
    const source = [
      "const url = 'http://example.com/a.ts'; // one",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text holding a template literal, on purpose
      'const text = `a ${`b // not ${"c"}`} /* not */`;',
      'const pattern = /\\/\\/[^/]*\\/*/g; /* two',
      '   still two */',
      'const half = 4 / 2; // three',
    ].join('\n');

    // Act
    const comments = commentsOf(source);

    // Assess
    expect(comments).toEqual([
      { line: 1, text: ' one' },
      { line: 3, text: ' two\n   still two ' },
      { line: 5, text: ' three' },
    ]);
  });
});

describe('the paths comments name', () => {
  const files = filesOf(['shared/schema/result.ts', 'shared/view/routes.ts', 'docs/trec.md', 'cli/threads/pipeline-threads.ts']);

  it('are found from the root, by a path from a folder above, and by a file name', () => {
    // Prepare
    const source = [
      '/**',
      ' * The one Result (shared/schema/result.ts, result.ts), the routes in shared/view/,',
      ' * docs/trec.md#the-run-kernel, and ../shared/DESIGN.md outside the repository.',
      ' */',
      '// The threads (threads/pipeline-threads.ts); runs/<run>/results/ is a store key.',
      "const page = 'shared/nowhere.ts';",
    ].join('\n');

    // Act
    const missing = missingIn('cli/threads/pipeline-thread-entry.ts', source, files);

    // Assess
    expect(pathsNamedInComments(source, FOLDERS).map((named) => named.path)).toEqual([
      'shared/schema/result.ts',
      'result.ts',
      'shared/view/',
      'docs/trec.md',
      'threads/pipeline-threads.ts',
    ]);
    expect(missing).toEqual([]);
  });

  it('that do not exist are each given with their line', () => {
    // Prepare
    const source = [
      '/**',
      ' * Written by shared/schema/results.ts',
      ' * (see docs/missing.md and run/pipeline-threads.ts), checked by routes-check.ts.',
      ' */',
      'export const x = 1; // test/unit/gone/',
    ].join('\n');

    // Act
    const missing = missingIn('cli/threads/pipeline-thread-entry.ts', source, files);

    // Assess
    expect(missing).toEqual([
      '2: shared/schema/results.ts',
      '3: docs/missing.md',
      '3: run/pipeline-threads.ts',
      '3: routes-check.ts',
      '5: test/unit/gone/',
    ]);
  });
});

describe('comments of the repository', () => {
  it('name only files and folders that exist', () => {
    // Prepare
    const folders = topLevelFolders();
    const names = new Set(
      folders.flatMap((folder) =>
        readdirSync(join(REPOSITORY_ROOT, folder), { recursive: true, encoding: 'utf8' })
          .filter((path) => !path.split('/').includes('node_modules'))
          .map((path) => basename(path)),
      ),
    );
    const files: RepositoryFiles = { exists: (path) => existsSync(join(REPOSITORY_ROOT, path)), hasFileNamed: (name) => names.has(name) };

    // Act
    const missing = sourceFiles().flatMap((file) =>
      pathsNamedInComments(readFileSync(join(REPOSITORY_ROOT, file), 'utf8'), folders)
        .filter((named) => !isThere(file, named, files))
        .map((named) => `${file}:${named.line}: ${named.path}`),
    );

    // Assess
    expect(sourceFiles().length).toBeGreaterThan(500);
    expect(missing.filter((found) => !KNOWN_STALE.includes(found))).toEqual([]);
    expect(KNOWN_STALE.filter((stale) => !missing.includes(stale))).toEqual([]);
  });
});
