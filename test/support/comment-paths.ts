import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPOSITORY_ROOT } from './markdown.js';

/** A comment of a source text: its text and the line (1-based) it starts on. */
export interface SourceComment {
  readonly line: number;
  readonly text: string;
}

/** A repository path a comment names, with the line it is on. */
export interface NamedPath {
  readonly line: number;
  readonly path: string;
  /** `root` for a path from the repository's root, `nearby` for a source file named by a shorter name. */
  readonly from: 'root' | 'nearby';
}

/**
 * The `//` and `/* ... *\/` comments of a TypeScript text. Strings, template
 * literals (with the code of their `${...}` read as code) and regular
 * expression literals are skipped, so a `//` in a URL or a pattern is no
 * comment. A slash starts a regular expression where an operand is due:
 * after an operator, an opening bracket, a comma or a keyword such as
 * `return`, as TypeScript reads it.
 */
export function commentsOf(source: string): SourceComment[] {
  const comments: SourceComment[] = [];
  // Each open template literal's `${` as the brace depth of the code around it.
  const templates: number[] = [];
  let depth = 0;
  let line = 1;
  let operandDue = true;
  let index = 0;
  const advanceTo = (end: number) => {
    for (let at = index; at < end; at++) if (source[at] === '\n') line++;
    index = end;
  };
  const skipTemplateText = () => {
    // From inside a template literal's text to its end (back to code) or to a `${` (into code).
    while (index < source.length) {
      const char = source[index];
      if (char === '\\') advanceTo(index + 2);
      else if (char === '`') {
        advanceTo(index + 1);
        operandDue = false;
        return;
      } else if (char === '$' && source[index + 1] === '{') {
        templates.push(depth);
        depth++;
        advanceTo(index + 2);
        operandDue = true;
        return;
      } else advanceTo(index + 1);
    }
  };
  while (index < source.length) {
    const char = source[index] as string;
    const next = source[index + 1];
    if (char === '/' && next === '/') {
      const end = source.indexOf('\n', index);
      const stop = end === -1 ? source.length : end;
      comments.push({ line, text: source.slice(index + 2, stop) });
      advanceTo(stop);
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', index + 2);
      const stop = end === -1 ? source.length : end + 2;
      comments.push({ line, text: source.slice(index + 2, end === -1 ? stop : end) });
      advanceTo(stop);
    } else if (char === "'" || char === '"') {
      let at = index + 1;
      while (at < source.length && source[at] !== char && source[at] !== '\n') at += source[at] === '\\' ? 2 : 1;
      advanceTo(Math.min(at + 1, source.length));
      operandDue = false;
    } else if (char === '`') {
      advanceTo(index + 1);
      skipTemplateText();
    } else if (char === '/' && operandDue) {
      let at = index + 1;
      let inClass = false;
      while (at < source.length && source[at] !== '\n' && (inClass || source[at] !== '/')) {
        if (source[at] === '\\') at++;
        else if (source[at] === '[') inClass = true;
        else if (source[at] === ']') inClass = false;
        at++;
      }
      advanceTo(Math.min(at + 1, source.length));
      operandDue = false;
    } else if (char === '{') {
      depth++;
      advanceTo(index + 1);
      operandDue = true;
    } else if (char === '}') {
      depth--;
      advanceTo(index + 1);
      if (templates.at(-1) === depth) {
        templates.pop();
        skipTemplateText();
      } else operandDue = true;
    } else if (/[\w$]/.test(char)) {
      let at = index;
      while (at < source.length && /[\w$]/.test(source[at] as string)) at++;
      const word = source.slice(index, at);
      advanceTo(at);
      operandDue = /^(return|typeof|case|do|else|in|of|instanceof|new|delete|void|throw|yield|await)$/.test(word);
    } else {
      if (!/\s/.test(char)) operandDue = !/[)\]]/.test(char);
      advanceTo(index + 1);
    }
  }
  return comments;
}

/**
 * The files and folders the comments of a source text name, two ways:
 *
 * - from the repository's root: a token that starts with one of `folders`
 *   and a slash and ends with a file extension or a slash, as
 *   `shared/schema/result.ts`, `docs/trec.md#anchor` (the file) or
 *   `shared/view/`;
 * - by a shorter name of a source file: `support/markdown.ts` (from a
 *   folder the commenting file is in, or one above it) or `markdown.ts` (a
 *   file of that name somewhere in the repository).
 *
 * A token inside a longer path (`../shared/DESIGN.md`, a URL) is none;
 * trailing punctuation is not part of it; a token with a placeholder
 * (`runs/<run>/`) or a wildcard is cut there.
 */
export function pathsNamedInComments(source: string, folders: readonly string[]): NamedPath[] {
  const top = folders.map((folder) => folder.replace(/[.]/g, '\\.')).join('|');
  const fromRoot = new RegExp(`^(?:${top})/`);
  const tokens = /(?<![\w./@-])[\w.@-]+\/[\w.@/-]*|(?<![\w./@-])[\w.-]+\.ts(?!\w|\.\w)/g;
  return commentsOf(source).flatMap((comment) =>
    [...comment.text.matchAll(tokens)].flatMap((match): NamedPath[] => {
      const path = match[0].replace(/[.-]+$/, '');
      const line = comment.line + (comment.text.slice(0, match.index).match(/\n/g)?.length ?? 0);
      if (fromRoot.test(path)) return /\.[A-Za-z0-9]+$/.test(path) || path.endsWith('/') ? [{ line, path, from: 'root' }] : [];
      return /^[\w.@/-]+\.ts$/.test(path) && !path.startsWith('@') ? [{ line, path, from: 'nearby' }] : [];
    }),
  );
}

/** What the repository holds, to look a named path up in. */
export interface RepositoryFiles {
  /** A file or folder at this path from the root. */
  exists(path: string): boolean;
  /** A file of this name somewhere. */
  hasFileNamed(name: string): boolean;
}

/** Whether a path named in `file`'s comments is there: from the root, or by a shorter name (pathsNamedInComments). */
export function isThere(file: string, named: NamedPath, files: RepositoryFiles): boolean {
  if (named.from === 'root') return files.exists(named.path);
  if (!named.path.includes('/')) return files.hasFileNamed(named.path);
  const folders = posix.dirname(file).split('/');
  return (
    folders.some((_, count) => files.exists(posix.normalize(posix.join(...folders.slice(0, folders.length - count), named.path)))) ||
    files.exists(posix.normalize(named.path))
  );
}

/** Folders at the repository's root that are not its own: dependencies, builds, run output. */
const NOT_THE_REPOSITORY = new Set(['node_modules', 'dist', 'cdk.out', '.git', '.assay', 'assay-report', 'coverage', '.data']);

/** The repository's top-level folders, which a path in a comment starts with. */
export function topLevelFolders(): string[] {
  return readdirSync(REPOSITORY_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_THE_REPOSITORY.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** The folders whose comments are checked. */
const SOURCE_FOLDERS = ['shared', 'functions', 'cli', 'infra', 'scripts', 'bench', 'kernels', 'test'];

/** Folders inside the source folders that hold no source of the project: dependencies, builds, test data. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'cdk.out', 'test/fixtures']);

/** Every .ts file of the source folders, as a path from the repository's root. */
export function sourceFiles(folder?: string): string[] {
  if (folder === undefined) return SOURCE_FOLDERS.flatMap((top) => sourceFiles(top));
  return readdirSync(join(REPOSITORY_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (NOT_SOURCE.has(entry.name) || NOT_SOURCE.has(path)) return [];
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
