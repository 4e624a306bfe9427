import type OpenAI from 'openai';

/**
 * The files of the test batch server, in memory: uploaded inputs (purpose
 * `batch`) and the output and error files its batches write (purpose
 * `batch_output`), kept as bytes so their content comes back unchanged.
 */
export type FileObject = OpenAI.Files.FileObject;

export interface StoredFile {
  readonly info: FileObject;
  readonly data: Buffer;
}

/** OpenAI keeps batch files 30 days unless told otherwise. */
const KEPT_SECONDS = 30 * 24 * 3600;

export class FileStore {
  private readonly files = new Map<string, StoredFile>();
  private added = 0;

  constructor(private readonly now: () => number) {}

  /** Every file still stored, by id. */
  get all(): ReadonlyMap<string, StoredFile> {
    return this.files;
  }

  add(filename: string, purpose: 'batch' | 'batch_output', data: Buffer): StoredFile {
    this.added += 1;
    const createdAt = Math.floor(this.now() / 1000);
    const info: FileObject = {
      id: `file-test${this.added}`,
      object: 'file',
      bytes: data.length,
      created_at: createdAt,
      expires_at: createdAt + KEPT_SECONDS,
      filename,
      purpose,
      status: 'processed',
    };
    const file = { info, data };
    this.files.set(info.id, file);
    return file;
  }

  get(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  delete(id: string): boolean {
    return this.files.delete(id);
  }

  /** Newest first, as the API lists them by default. */
  newestFirst(): StoredFile[] {
    return [...this.files.values()].reverse();
  }
}
