import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, headingTexts, readRepositoryFile, REPOSITORY_ROOT } from '../../support/markdown.js';

/** What a relative link points at: a repository path and, after `#`, a heading's anchor. */
interface LinkTarget {
  readonly path: string;
  readonly anchor?: string;
}

function resolveLink(from: string, target: string): LinkTarget {
  const [file = '', anchor] = target.split('#');
  return { path: file === '' ? from : normalize(join(dirname(from), decodeURI(file))), anchor };
}

/** Why a link cannot be followed, or undefined when it can. */
function brokenBecause(link: LinkTarget): string | undefined {
  if (!existsSync(join(REPOSITORY_ROOT, link.path))) return `${link.path} does not exist`;
  if (link.anchor === undefined) return undefined;
  if (!link.path.endsWith('.md')) return `${link.path} is not a Markdown page with headings`;
  return headingAnchors(readRepositoryFile(link.path)).has(link.anchor) ? undefined : `${link.path} has no heading #${link.anchor}`;
}

/** The source folders whose messages and comments may point users at a page. */
const SOURCE_FOLDERS = ['cli', 'shared', 'functions', 'infra', 'scripts', 'bench'];

function sourceTexts(): Array<[string, string]> {
  return SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(REPOSITORY_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') || path.endsWith('.js'))
      .map((path): [string, string] => [`${folder}/${path}`, readFileSync(join(REPOSITORY_ROOT, folder, path), 'utf8')]),
  );
}

describe('pages the code points users at', () => {
  const sources = sourceTexts();

  it('names only docs pages and headings that exist', () => {
    // Act
    const broken = sources.flatMap(([source, text]) =>
      [...text.matchAll(/\bdocs\/[a-z0-9-]+\.md(#[\w-]+)?/g)]
        .map((match) => [source, match[0], brokenBecause(resolveLink('README.md', match[0]))])
        .filter(([, , reason]) => reason !== undefined),
    );

    // Assess
    expect(broken).toEqual([]);
  });

  it('names a README section only by a heading the README has', () => {
    // Prepare: the README is a front page; its detail moved to docs/, so a section it no longer has is a dead end
    const readmeHeadings = new Set(headingTexts(readRepositoryFile('README.md')));

    // Act
    const dangling = sources.flatMap(([source, text]) =>
      [...text.matchAll(/README(?:\.md)?,? (?:section )?"([^"]+)"/g)]
        .map((match) => [source, match[1]])
        .filter(([, heading]) => !readmeHeadings.has(heading as string)),
    );

    // Assess
    expect(dangling).toEqual([]);
  });
});
