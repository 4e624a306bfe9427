import { vi } from 'vitest';

/** One structured log line as Powertools' Logger writes it (a JSON object a line). */
export type LogEntry = Readonly<Record<string, unknown>> & { readonly level?: string; readonly message?: string };

export interface CapturedLogs {
  /** The JSON lines written so far, parsed; other output is kept in text() only. */
  entries(): LogEntry[];
  /** Everything written, as it was written. */
  text(): string;
  restore(): void;
}

/**
 * Captures what the process writes to stdout and stderr, which is where a
 * Lambda function's logs go (Powertools' Logger writes there through a
 * console of its own, so vitest's console interception does not see it).
 * Call restore() when done, in a finally or afterEach.
 */
export function captureLogs(): CapturedLogs {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array): boolean => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture as typeof process.stdout.write);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture as typeof process.stderr.write);
  const text = (): string => chunks.join('');
  return {
    text,
    entries: () =>
      text()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as LogEntry];
          } catch {
            return [];
          }
        }),
    restore() {
      stdout.mockRestore();
      stderr.mockRestore();
    },
  };
}
