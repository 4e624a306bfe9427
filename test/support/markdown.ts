import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root folder. */
export const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..');

/** Folders that hold no documentation of the project: dependencies, builds, run output, generated benchmark data. */
const NOT_DOCUMENTATION = new Set(['node_modules', 'dist', '.git', 'cdk.out', '.assay', 'assay-report', 'coverage', '.data']);

/** Every Markdown file of the repository, as a path relative to its root. */
export function markdownFiles(folder = ''): string[] {
  return readdirSync(join(REPOSITORY_ROOT, folder), { withFileTypes: true })
    .filter((entry) => !NOT_DOCUMENTATION.has(entry.name))
    .flatMap((entry) => {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) return markdownFiles(path);
      return entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

export function readRepositoryFile(path: string): string {
  return readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
}

/** The text without its fenced code blocks, whose brackets and `#` lines are code, not links or headings. */
export function proseOf(markdown: string): string {
  return markdown.replace(/^ *(```|~~~)[^\n]*\n[\s\S]*?^ *\1[^\n]*$/gm, '');
}

/** The targets of the inline links `[text](target)` of a Markdown text, outside code blocks and code spans. */
export function linkTargets(markdown: string): string[] {
  return [
    ...proseOf(markdown)
      .replace(/`[^`\n]+`/g, '')
      .matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g),
  ].map((match) => match[1] as string);
}

/**
 * The anchors GitHub gives the headings of a Markdown text: lower case, every
 * character but letters, digits, spaces, `_` and `-` dropped, each space a
 * `-`; a repeated heading gets `-1`, `-2`, ...
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOf(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = (heading[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The headings' own text, as written after the `#` marks. */
export function headingTexts(markdown: string): string[] {
  return [...proseOf(markdown).matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)].map((match) => match[1] as string);
}
