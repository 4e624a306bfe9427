import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';

/**
 * A local file written in order, chunk after chunk, waiting when the disk is
 * behind: the scratch files of ingest, the reduce and the report. The file's
 * error (a full disk: ENOSPC) is thrown by the write that meets it or by any
 * later one, and by `close`, whenever it came. Waiting on a write stream's
 * own events would miss it: a stream that fails emits 'error' and 'close' at
 * once, and a wait for 'drain' or 'close' begun after them never ends; the
 * process then exits with nothing said (code 13, a top-level await unsettled).
 */
export class FileWriter {
  private readonly stream: WriteStream;

  constructor(readonly path: string) {
    this.stream = createWriteStream(path);
    // Kept in `stream.errored` and thrown from there: an error with no listener would end the process instead.
    this.stream.on('error', () => {});
  }

  async write(chunk: string | Uint8Array): Promise<void> {
    const { stream } = this;
    if (stream.errored !== null) throw stream.errored;
    if (!stream.write(chunk)) await drainedOrDestroyed(stream);
    if (stream.errored !== null) throw stream.errored;
  }

  /** Ends the file and waits until it is written and closed; throws the file's error, if it had one. */
  async close(): Promise<void> {
    if (!this.stream.writableEnded) this.stream.end();
    await finished(this.stream);
  }
}

/** Resolves when the stream can take more, or is destroyed (by its error, which the caller then throws). */
function drainedOrDestroyed(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    // Destroyed before the listeners were added: its 'close' has been emitted already.
    if (stream.destroyed) done();
  });
}
