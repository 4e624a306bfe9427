import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { EvalCase } from '../schema/eval-case.js';
import type { InputError } from '../schema/input-error.js';
import { CaseGrouper, type CaseIdRule } from './case-grouper.js';
import { requestIdFor } from './content-ids.js';
import type { NormalisedRow } from './normalise-row.js';
import { PartitionFiles } from './partition-files.js';

export type GroupedEvent = { kind: 'case'; case: EvalCase } | { kind: 'errors'; errors: InputError[] };

/**
 * Groups rows into cases with memory bounded by a partition, not by the
 * dataset: rows go to one of `partitions` spill files on disk by a hash of
 * their request id, in file order, and each partition is then grouped on its
 * own with the in-memory CaseGrouper. All rows of a request land in the same
 * partition (by case id, so two requests that share one meet there too), so the cases, their conflicts and their errors are the same as
 * grouping the whole file at once; only the order of the cases differs (by
 * partition, then by first row), and it is the same on every run.
 */
export class SpillingCaseGrouper {
  private readonly spill: PartitionFiles;

  constructor(
    private readonly file: string,
    private readonly folder: string,
    private readonly partitions: number,
    private readonly caseIds?: CaseIdRule,
  ) {
    this.spill = new PartitionFiles(folder, partitions, 'jsonl');
  }

  /** Spill files for a dataset of this many bytes: about 2 MB of rows each, 16 at least. */
  static partitionsFor(datasetBytes: number): number {
    return Math.max(16, Math.ceil(datasetBytes / (2 * 1024 * 1024)));
  }

  async add(row: NormalisedRow): Promise<void> {
    const requestId = row.request_id ?? requestIdFor(row.request);
    const caseId = this.caseIds === undefined ? requestId : this.caseIds.idOf(requestId);
    const partition = createHash('md5').update(caseId).digest().readUInt32BE(0) % this.partitions;
    await this.spill.add(partition, `${JSON.stringify(row)}\n`);
  }

  /** The cases partition by partition, with the rows rejected while grouping them. */
  async *finish(): AsyncGenerator<GroupedEvent> {
    await this.spill.flush();
    try {
      for (let partition = 0; partition < this.partitions; partition++) {
        const grouper = new CaseGrouper(this.file, this.caseIds);
        const text = await this.spill.read(partition);
        for (const line of text.split('\n')) {
          if (line === '') continue;
          const errors = grouper.add(JSON.parse(line) as NormalisedRow);
          if (errors.length > 0) yield { kind: 'errors', errors };
        }
        for (const evalCase of grouper.finish()) yield { kind: 'case', case: evalCase };
      }
    } finally {
      await rm(this.folder, { recursive: true, force: true });
    }
  }
}
