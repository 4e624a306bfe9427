import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { proseOf, REPOSITORY_ROOT } from './markdown.js';

/**
 * A checker of the relative links of Markdown pages: each must point at a file
 * that exists and, when it has an anchor, at a heading that page has, by the
 * anchors GitHub gives headings. It reads files through `Files`, so it can be
 * tried on small Markdown strings as well as on the repository.
 */

/** The files a link may point at, by path relative to the repository's root (`docs/judges.md`, `examples/configs`). */
export interface Files {
  /** A file or folder exists at the path. */
  exists(path: string): boolean;
  /** The text of a file that exists; only asked of `.md` files. */
  read(path: string): string;
}

/** A link that cannot be followed, and why. */
export interface BrokenLink {
  /** The page the link is on. */
  readonly page: string;
  /** The link's target as written: `judge-client.md#judge-rate-limits-judgerate_limit`. */
  readonly target: string;
  readonly reason: string;
}

/** The repository's files, read from the disk. */
export const REPOSITORY_FILES: Files = {
  exists: (path) => existsSync(join(REPOSITORY_ROOT, path)),
  read: (path) => readFileSync(join(REPOSITORY_ROOT, path), 'utf8'),
};

/** The same files on disk, with the folders told apart from files. */
function isFolder(path: string): boolean {
  return statSync(join(REPOSITORY_ROOT, path), { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/**
 * The anchor GitHub gives a heading, before duplicates are numbered: the
 * heading's text as rendered (a link's text, not its target; code spans
 * without their backticks), lower case, every character but letters,
 * digits, spaces, `-` and `_` dropped, each space a `-`.
 */
export function githubAnchor(heading: string): string {
  // Code spans keep their text as it is; elsewhere a link gives its text, and an HTML tag nothing.
  const rendered = heading
    .split(/(`+[^`][\s\S]*?`+)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<\/?[a-z][^>]*>/gi, '')))
    .join('')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text of each heading of a Markdown text, in order: ATX (`## Text`) and setext (a line under `===` or `---`), outside code blocks. */
export function headings(markdown: string): string[] {
  const found: string[] = [];
  const lines = proseOf(markdown).split('\n');
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx !== null) {
      found.push(atx[1] ?? '');
      return;
    }
    const previous = lines[index - 1] ?? '';
    const setext = /^ {0,3}(?:=+|-+)[ \t]*$/.test(line);
    const paragraphLine = previous.trim() !== '' && !/^ {0,3}(?:#|\||[-*+>] |\d+[.)] |(?:=+|-+)[ \t]*$)/.test(previous);
    if (setext && paragraphLine) found.push(previous.trim());
  });
  return found;
}

/**
 * Every anchor a Markdown page has: its headings' anchors, a repeated one
 * numbered `-1`, `-2`, ... as GitHub numbers them (skipping a number another
 * heading already took), and the `id` or `name` of its HTML anchors.
 */
export function pageAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const repeats = new Map<string, number>();
  for (const heading of headings(markdown)) {
    const base = githubAnchor(heading);
    let anchor = base;
    while (anchors.has(anchor)) {
      const count = (repeats.get(base) ?? 0) + 1;
      repeats.set(base, count);
      anchor = `${base}-${count}`;
    }
    anchors.add(anchor);
  }
  for (const match of proseOf(markdown).matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/gi)) anchors.add(match[1] as string);
  return anchors;
}

/** The targets of a Markdown text's links, inline (`[text](target "title")`, `[text](<target>)`) and reference definitions (`[label]: target`), outside code. */
export function linkTargetsOf(markdown: string): string[] {
  const prose = proseOf(markdown).replace(/(`+)[^`][\s\S]*?\1/g, '');
  const inline = [...prose.matchAll(/\]\(\s*(?:<([^<>\n]*)>|([^()\s]+))(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)].map(
    (match) => (match[1] ?? match[2]) as string,
  );
  const definitions = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*(?:<([^<>\n]*)>|(\S+))/gm)].map((match) => (match[1] ?? match[2]) as string);
  return [...inline, ...definitions];
}

/** A link to another site, or to an e-mail address: not the checker's business. */
function external(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** Why the link `target` on `page` cannot be followed, or undefined when it can. */
export function brokenBecause(
  page: string,
  target: string,
  files: Files,
  folder: (path: string) => boolean = () => false,
): string | undefined {
  const hash = target.indexOf('#');
  const file = (hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
  const anchor = hash === -1 ? undefined : target.slice(hash + 1);
  let decoded: string;
  try {
    decoded = decodeURIComponent(file);
  } catch {
    return `${file} is not a valid URL path`;
  }
  const path =
    decoded === ''
      ? page
      : decoded.startsWith('/')
        ? posix.normalize(decoded.slice(1))
        : posix.normalize(posix.join(posix.dirname(page), decoded));
  if (path.startsWith('..')) return `${decoded} points outside the repository`;
  const bare = path.replace(/\/$/, '');
  if (!files.exists(bare)) return `${bare} does not exist`;
  if (anchor === undefined) return undefined;
  if (!bare.endsWith('.md') || folder(bare)) {
    return /^L\d+(?:-L\d+)?$/.test(anchor) && !folder(bare)
      ? undefined
      : `${bare} is not a Markdown page with headings, so it has no #${anchor}`;
  }
  return pageAnchors(files.read(bare)).has(anchor) ? undefined : `${bare} has no heading with the anchor #${anchor}`;
}

/** The relative links of `page` that cannot be followed. */
export function brokenLinks(page: string, markdown: string, files: Files, folder?: (path: string) => boolean): BrokenLink[] {
  return linkTargetsOf(markdown)
    .filter((target) => !external(target))
    .flatMap((target) => {
      const reason = brokenBecause(page, target, files, folder);
      return reason === undefined ? [] : [{ page, target, reason }];
    });
}

/** The broken relative links of a page of the repository. */
export function brokenRepositoryLinks(page: string): BrokenLink[] {
  return brokenLinks(page, REPOSITORY_FILES.read(page), REPOSITORY_FILES, isFolder);
}
