import { Progress } from '../../cli/run/progress.js';
import type { JudgeUsage } from '../../shared/judges/judge-service.js';

/** A progress display that writes nowhere, so test output stays readable. */
export function silentProgress(usage: () => Record<string, JudgeUsage> = () => ({})): Progress {
  return new Progress({ write: () => true, isTTY: false } as unknown as NodeJS.WriteStream, usage);
}
