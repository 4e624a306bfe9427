import type { CollectedDataset } from '../../../shared/rows/dataset-events.js';
import type { InputError } from '../../../shared/schema/input-error.js';

/** A load's cases by request id and its errors by file and line: what a spilled load gives, whose cases come partition by partition. */
export function inFixedOrder(loaded: CollectedDataset) {
  const byLine = (left: InputError, right: InputError) => left.file.localeCompare(right.file) || left.line - right.line;
  return {
    cases: [...loaded.cases].sort((left, right) => left.request_id.localeCompare(right.request_id)),
    errors: [...loaded.errors].sort(byLine),
    counts: loaded.counts,
  };
}
