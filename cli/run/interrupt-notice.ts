import { resumable, type UnfinishedRun } from './unfinished-run.js';

/**
 * What `assay run` says when it is interrupted (Ctrl-C, or SIGTERM as a CI
 * job that is cancelled sends it) once its run has an id: a line on stderr
 * with the command that finishes the run, since the line that named it at
 * the start may be pages up; or, interrupted before its ingest claimed the
 * run (a large dataset still being read), that nothing was judged and the
 * same command starts it again. The process then ends as the signal would
 * have ended it (130 for SIGINT, 143 for SIGTERM). What the run stored is
 * kept: every case's result is its own file, written whole or not at all.
 * A second signal while the store is looked at ends the process at once.
 */
const SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;

export interface InterruptNotice {
  /** The run no longer needs the notice (it ended, or failed): the signals' default comes back. */
  release(): void;
}

export function noticeOnInterrupt(stream: NodeJS.WriteStream, run: UnfinishedRun): InterruptNotice {
  const handlers = Object.entries(SIGNALS).map(([signal, exitCode]) => {
    const handler = (): void => {
      void resumable(run).then((canResume) => {
        const next = canResume
          ? `what the run stored is kept: finish it with: ${run.finish}`
          : 'the run had not started judging (its ingest had not claimed it): nothing of it was judged; run the same command again';
        // After the progress line, which a terminal keeps rewriting in place.
        stream.write(`${stream.isTTY ? '\n' : ''}assay: interrupted (${signal}); ${next}\n`);
        process.exit(exitCode);
      });
    };
    process.once(signal, handler);
    return { signal, handler };
  });
  return {
    release() {
      for (const { signal, handler } of handlers) process.off(signal, handler);
    },
  };
}
