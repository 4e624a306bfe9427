import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/**
 * The files a clone holds, as git lists them (so a file made on this machine
 * and never committed cannot hide a stale name), and the folders .gitignore
 * names, which commands make (bench/.data/, dist/): a comment may name those.
 */
function committedFiles(): RepositoryFiles {
  const tracked = execFileSync('git', ['ls-files'], { cwd: REPOSITORY_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter((path) => path !== '');
  const folders = new Set(
    tracked.flatMap((path) =>
      path
        .split('/')
        .slice(0, -1)
        .map((_, index, parts) => parts.slice(0, index + 1).join('/')),
    ),
  );
  const names = new Set(tracked.map((path) => basename(path)));
  const made = readFileSync(join(REPOSITORY_ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .filter((line) => line.endsWith('/'))
    .map((line) => line.slice(0, -1));
  const isMade = (path: string): boolean =>
    made.some((folder) => (folder.includes('/') ? path === folder || path.startsWith(`${folder}/`) : path.split('/').includes(folder)));
  return {
    exists: (path) => {
      const plain = path.replace(/\/$/, '');
      return tracked.includes(plain) || folders.has(plain) || isMade(plain);
    },
    hasFileNamed: (name) => names.has(name),
  };
}

describe('comments of the repository', () => {
  it('name only files and folders that exist', () => {
    // Prepare
    const folders = topLevelFolders();
    const files = committedFiles();

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
