import { basename } from 'node:path';

/**
 * Where a suite's canary set lives in the store: under `canaries/`, outside
 * `datasets/`, so storing it starts no run. Its file name is the one the
 * config names; a deployed stack reads it from the bucket there.
 */
export function canaryDatasetKey(suite: string, dataset: string): string {
  return `canaries/${suite}/${basename(dataset)}`;
}

/**
 * A canary case's id: its id in the canary set behind `canary~`, a character
 * no dataset's case id has (run-identity.ts caseIdFor), so a canary case never
 * takes the key of one of the run's own cases, whatever the two sets call them.
 */
export const CANARY_CASE_PREFIX = 'canary~';

export function canaryCaseId(caseId: string): string {
  return `${CANARY_CASE_PREFIX}${caseId}`;
}

export function isCanaryCaseId(caseId: string): boolean {
  return caseId.startsWith(CANARY_CASE_PREFIX);
}
