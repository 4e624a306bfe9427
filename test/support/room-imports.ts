import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { REPOSITORY_ROOT } from './markdown.js';

/** One import from a file of one room to a file of another. */
export interface RoomImport {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly imported: string;
}

/** The folders whose code is placed in rooms: the CLI, the Lambda handlers and everything they share. */
const CODE_FOLDERS = ['cli', 'functions', 'shared'];

/** `shared/<room>/...` is that room; `cli/...` and `functions/...` are one room each. */
export function roomOf(path: string): string {
  const [top, second] = path.split('/');
  return top === 'shared' ? `shared/${second}` : (top as string);
}

function sourceFiles(folder: string): string[] {
  return readdirSync(posix.join(REPOSITORY_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The relative module names a source text imports: static imports, re-exports and `import()` calls. */
export function importedNames(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] as string);
}

/** Every import of the code folders that leaves its own room, file by file. */
export function roomImports(): RoomImport[] {
  return CODE_FOLDERS.flatMap(sourceFiles).flatMap((file) =>
    importedNames(readFileSync(posix.join(REPOSITORY_ROOT, file), 'utf8'))
      .map((name) => posix.normalize(posix.join(posix.dirname(file), name)))
      .filter((imported) => roomOf(imported) !== roomOf(file))
      .map((imported) => ({ from: roomOf(file), to: roomOf(imported), file, imported })),
  );
}

/** Each file of the code folders (and infra/) that imports a package whose name `matches`, with the package named. */
export function packageImports(matches: RegExp): { file: string; imported: string }[] {
  return [...CODE_FOLDERS, 'infra'].flatMap(sourceFiles).flatMap((file) =>
    [...readFileSync(posix.join(REPOSITORY_ROOT, file), 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'".][^'"]*)['"]/g)]
      .map((match) => match[1] as string)
      .filter((name) => matches.test(name))
      .map((imported) => ({ file, imported })),
  );
}

/**
 * The production code's lines by room, for the rooms' sizes: a folder of
 * shared/ or cli/ is a room (cli/'s own files one more), functions/ and
 * infra/ one each.
 */
export function linesByRoom(): Map<string, number> {
  const lines = new Map<string, number>();
  for (const file of [...CODE_FOLDERS, 'infra'].flatMap(sourceFiles)) {
    const [top, second, third] = file.split('/');
    const room = (top === 'shared' || top === 'cli') && third !== undefined ? `${top}/${second}` : top === 'cli' ? 'cli' : roomOf(file);
    const count = readFileSync(posix.join(REPOSITORY_ROOT, file), 'utf8').split('\n').length;
    lines.set(room as string, (lines.get(room as string) ?? 0) + count);
  }
  return lines;
}

/** The rooms of the shared folder as they stand on disk. */
export function sharedRooms(): string[] {
  return readdirSync(posix.join(REPOSITORY_ROOT, 'shared'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `shared/${entry.name}`);
}

/** The rooms that import each other in a loop, each loop as its rooms (Tarjan's strongly connected components of two or more). */
export function roomCircles(imports: readonly RoomImport[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of imports) next.set(from, (next.get(from) ?? new Set()).add(to));
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (room: string): void => {
    index.set(room, index.size);
    lowest.set(room, index.get(room) as number);
    stack.push(room);
    for (const other of next.get(room) ?? []) {
      if (!index.has(other)) {
        visit(other);
        lowest.set(room, Math.min(lowest.get(room) as number, lowest.get(other) as number));
      } else if (stack.includes(other)) lowest.set(room, Math.min(lowest.get(room) as number, index.get(other) as number));
    }
    if (lowest.get(room) !== index.get(room)) return;
    const circle: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member !== undefined) circle.push(member);
    } while (member !== undefined && member !== room);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const room of next.keys()) if (!index.has(room)) visit(room);
  return circles;
}
