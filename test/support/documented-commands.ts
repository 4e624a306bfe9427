import { markdownFiles, readRepositoryFile } from './markdown.js';

/**
 * Every `npx assay ...` command the README and docs/ show a reader, as the
 * reader would type it: in a fenced block (a `$ ` prompt and lines continued
 * with `\` included) or in a code span of the prose (which may wrap).
 */
export interface DocumentedCommand {
  /** `README.md` or `docs/<page>.md`. */
  readonly page: string;
  /** The command without `npx `, `$ ` or `npm ci && `, its comment and line breaks: `assay ir-metrics -q ...`. */
  readonly command: string;
  /** A synopsis (`[--json]`, `RUN...`): its options are checked against `--help` instead of being run. */
  readonly synopsis: boolean;
  /** The output shown under a `$ ` command in its block, up to a `...` line; undefined when none is shown. */
  readonly shownOutput?: readonly string[];
  /** The shown output ends in a `...` line: the command prints more. */
  readonly truncated?: boolean;
}

const COMMAND_START = /^(?:\$ )?(?:npm ci && )?npx (assay\b.*)$/;
const SPAN = /`(?:npm ci && )?npx (assay\b[^`]*)`/g;

export function documentedCommands(): DocumentedCommand[] {
  return markdownFiles()
    .filter((page) => page === 'README.md' || page.startsWith('docs/'))
    .flatMap((page) => commandsOf(page, readRepositoryFile(page)));
}

export function commandsOf(page: string, markdown: string): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  const prose: string[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const fence = /^ *(```|~~~)/.exec(lines[index] ?? '');
    if (fence === null) {
      prose.push(lines[index] ?? '');
      continue;
    }
    const block: string[] = [];
    while (++index < lines.length && !(lines[index] ?? '').trimStart().startsWith(fence[1] ?? '```')) block.push(lines[index] ?? '');
    found.push(...blockCommands(page, block));
  }
  for (const match of prose.join('\n').matchAll(SPAN)) found.push(command(page, match[1] ?? ''));
  return found;
}

function blockCommands(page: string, block: readonly string[]): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  for (let index = 0; index < block.length; index++) {
    const first = block[index] ?? '';
    const start = COMMAND_START.exec(first);
    if (start === null) continue;
    let text = start[1] ?? '';
    // A line ending in `\` goes on; so does a synopsis's indented line of more options.
    while (index + 1 < block.length && (text.endsWith('\\') || /^\s+\[/.test(block[index + 1] ?? '')))
      text = `${text.replace(/\\$/, '')} ${block[++index]}`;
    if (!first.startsWith('$ ')) {
      found.push(command(page, text));
      continue;
    }
    const output: string[] = [];
    while (index + 1 < block.length && block[index + 1] !== '...' && !COMMAND_START.test(block[index + 1] ?? ''))
      output.push(block[++index] ?? '');
    found.push({ ...command(page, text), shownOutput: output, truncated: block[index + 1] === '...' });
  }
  return found;
}

function command(page: string, text: string): DocumentedCommand {
  const withoutComment = text.replace(/\s+#\s.*$/, '');
  const normal = withoutComment.replace(/\s+/g, ' ').trim();
  return { page, command: normal, synopsis: /\[|\.\.\./.test(normal) };
}

/** The words of a command as a shell splits them (double quotes group, nothing else is special in the docs' commands). */
export function commandWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}
