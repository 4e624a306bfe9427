import { Progress } from '../../cli/run/progress.js';
import type { JudgeUsage } from '../../shared/scoring/judge-usage-tally.js';

/** A stream that takes the progress lines and drops them. */
export const SILENT_STREAM = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;

/** A progress display that writes nowhere, so test output stays readable. */
export function silentProgress(usage: () => Record<string, JudgeUsage> = () => ({})): Progress {
  return new Progress(SILENT_STREAM, usage);
}
