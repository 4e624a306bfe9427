import { formatInputError, type InputError } from '../shared/schema/input-error.js';
import { emptyCounts, type DatasetCounts } from '../shared/dataset/index.js';
import { terminalName } from '../shared/report-render/terminal-text.js';
import { validationJsonSchema, type ValidationJson } from '../shared/schema/validation-json.js';
import { checkedJson } from './checked-json.js';

/** Errors printed as text before "and N more": enough to see the pattern, not a wall. */
const ERRORS_SHOWN = 50;
/** Errors kept for --json: a file where every row is bad must not exhaust memory. */
const ERRORS_KEPT = 10_000;

/** What `assay validate` found over all its inputs. */
export class ValidationReport {
  private readonly counts: DatasetCounts = emptyCounts();
  private readonly errors: InputError[] = [];

  addError(error: InputError): void {
    if (this.errors.length < ERRORS_KEPT) this.errors.push(error);
  }

  /** Adds the counts of one load (one dataset file, or one TREC collection). */
  addCounts(counts: DatasetCounts): void {
    this.counts.rows += counts.rows;
    this.counts.cases += counts.cases;
    this.counts.labelled_cases += counts.labelled_cases;
    this.counts.expected_response_cases += counts.expected_response_cases;
    this.counts.human_verdict_cases += counts.human_verdict_cases;
    this.counts.errors += counts.errors;
    for (const [engine, cases] of Object.entries(counts.engines)) this.counts.engines[engine] = (this.counts.engines[engine] ?? 0) + cases;
  }

  get errorCount(): number {
    return this.counts.errors;
  }

  get caseCount(): number {
    return this.counts.cases;
  }

  toText(): string {
    const { rows, cases, engines, labelled_cases, expected_response_cases, human_verdict_cases, errors } = this.counts;
    const lines = [`rows: ${rows}`, `cases: ${cases}`, `engines: ${Object.keys(engines).length}`];
    // Names and errors quote the user's files: escaped, a control character can neither drive the terminal nor forge a line.
    for (const [engine, engineCases] of Object.entries(engines))
      lines.push(`  ${terminalName(engine)}: ${engineCases} ${engineCases === 1 ? 'case' : 'cases'}`);
    // Labelled means relevance labels (docs/datasets.md#labelled-cases); the other references are counted under their own names.
    lines.push(
      `labelled cases: ${labelled_cases}`,
      `cases with an expected response: ${expected_response_cases}`,
      `cases with human verdicts: ${human_verdict_cases}`,
      `errors: ${errors}`,
    );
    for (const error of this.errors.slice(0, ERRORS_SHOWN)) lines.push(`  ${terminalName(formatInputError(error))}`);
    if (errors > ERRORS_SHOWN) lines.push(`  ... and ${errors - ERRORS_SHOWN} more`);
    return `${lines.join('\n')}\n`;
  }

  toJson(): string {
    const { rows, cases, engines, labelled_cases, expected_response_cases, human_verdict_cases, errors } = this.counts;
    const counted = { rows, cases, engines, labelled_cases, expected_response_cases, human_verdict_cases };
    // error_count says how many there were when the list had to be cut.
    const printed: ValidationJson = { ...counted, errors: this.errors, error_count: errors };
    return `${checkedJson(validationJsonSchema, printed)}\n`;
  }
}
