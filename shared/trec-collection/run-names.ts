import { basename } from 'node:path';

/**
 * The name of a run is its tag, unless an earlier run file already used that
 * tag: two files with the same tag are two runs to compare (a re-run, a
 * truncated copy), so the later one is told apart by its file name,
 * `<file name>:<tag>`.
 */
export class RunNames {
  private readonly fileOfTag = new Map<string, string>();

  nameFor(tag: string, file: string): string {
    const owner = this.fileOfTag.get(tag);
    if (owner === undefined) this.fileOfTag.set(tag, file);
    return owner === undefined || owner === file ? tag : `${basename(file)}:${tag}`;
  }
}
