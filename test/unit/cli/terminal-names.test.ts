import { describe, expect, it } from 'vitest';
import { failureMessage } from '../../../cli/failure-message.js';
import { UsageError } from '../../../cli/usage-error.js';
import { ValidationReport } from '../../../cli/validation-report.js';

/** Any control character but the line breaks that end lines. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('names printed to the terminal', () => {
  it.each<[string, unknown, boolean]>([
    ['a usage error naming a file', new UsageError('The dataset file /data/\u001b]0;owned\u0007.jsonl does not exist'), false],
    ['an unexpected error', new Error('cannot read run \u009b2J'), false],
    ['an unexpected error with --debug', new Error('cannot read run \u001b[2J'), true],
  ])('%s shows its control characters escaped', (_described, error, debug) => {
    // Act
    const text = failureMessage(error, { debug }).lines.join('\n');

    // Assess
    expect(text).not.toMatch(CONTROL);
    expect(text).toMatch(/\\x1b|\\x9b/);
  });

  it('assay validate shows file names, fields and engine names escaped, each error on its own line', () => {
    // Prepare
    const report = new ValidationReport();
    report.addCounts({
      rows: 2,
      cases: 1,
      engines: { 'bm25\u001b[31m': 1 },
      labelled_cases: 0,
      expected_response_cases: 0,
      human_verdict_cases: 0,
      errors: 1,
    });
    report.addError({
      file: 'rows\u001b]0;x\u0007.jsonl',
      line: 2,
      field: 'engine\nrows.jsonl:3: forged',
      message: 'expected a text',
      fix: 'give a text',
    });

    // Act
    const text = report.toText();

    // Assess
    expect(text).not.toMatch(CONTROL);
    expect(text.split('\n')).toEqual([
      'rows: 2',
      'cases: 1',
      'engines: 1',
      '  bm25\\x1b[31m: 1 case',
      'labelled cases: 0',
      'cases with an expected response: 0',
      'cases with human verdicts: 0',
      'errors: 1',
      '  rows\\x1b]0;x\\x07.jsonl:2: field "engine\\nrows.jsonl:3: forged": expected a text (fix: give a text)',
      '',
    ]);
  });
});
