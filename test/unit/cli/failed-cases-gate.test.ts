import { describe, expect, it } from 'vitest';
import { judgeFailuresWarning, maxFailedOf, tooManyFailed, type GatedCases } from '../../../cli/run/failed-cases-gate.js';
import { UsageError } from '../../../cli/usage-error.js';

/** A report's cases: `failed` cases q001, q002, ... with a reason each, then `missing` ones; the rest evaluated. */
function casesOf(total: number, failed: number, missing = 0): GatedCases {
  const id = (index: number) => `q${String(index + 1).padStart(3, '0')}`;
  return {
    cases: { total, evaluated: total - failed - missing, failed, missing, judge_failed: 0 },
    failed_cases: Array.from({ length: failed }, (_, index) => ({
      case_id: id(index),
      error: `chunk_relevance: the judge server answered 500 (${id(index)})`,
    })),
    missing_cases: Array.from({ length: missing }, (_, index) => id(failed + index)),
  };
}

/**
 * `cases` with judge failures added, as report.json lists them: q0j1: correctness failed on engines a and b,
 * q0j2: chunk_relevance on a, and correctness on b; then one more case per `extra`, correctness on a.
 */
function withJudgeFailures(cases: GatedCases, extra = 0): GatedCases {
  const entries = [
    { case_id: 'q0j1', error: 'the judge answered no JSON', judge: 'correctness', engines: ['a', 'b'] },
    { case_id: 'q0j2', error: '1 of 3 chunks could not be judged: the judge answered no JSON', judge: 'chunk_relevance', engines: ['a'] },
    { case_id: 'q0j2', error: 'the judge answered no rating', judge: 'correctness', engines: ['b'] },
    ...Array.from({ length: extra }, (_, index) => ({
      case_id: `q0k${index}`,
      error: 'the judge answered no JSON',
      judge: 'correctness',
      engines: ['a'],
    })),
  ];
  return {
    ...cases,
    cases: { ...cases.cases, judge_failed: 2 + extra },
    failed_cases: [...cases.failed_cases, ...entries],
  };
}

describe('--max-failed', () => {
  it.each([
    [undefined, 0],
    ['0', 0],
    ['3', 3],
    [' 12 ', 12],
  ])('reads %j as a count of %i cases', (value, count) => {
    expect(maxFailedOf(value)).toEqual({ kind: 'count', count });
  });

  it.each(['0%', '50%', '100%', '2.5%', '100.00%'])('reads %s as a percentage', (value) => {
    expect(maxFailedOf(value)).toMatchObject({ kind: 'percent', text: value });
  });

  it.each(['abc', '', '-1', '1.5', '150%', '100.01%', '-5%', '%', '5%%', '1e3', '99999999999999999999'])(
    'refuses %j, naming what it expects',
    (value) => {
      // Act
      const refuse = () => maxFailedOf(value);

      // Assess
      expect(refuse).toThrow(UsageError);
      expect(refuse).toThrow(
        `--max-failed got "${value}"; expected a number of cases from 0 and up (e.g. 3) or a percentage of the cases from 0% to 100% (e.g. 5%)`,
      );
    },
  );
});

describe('the gate on failed and missing cases', () => {
  it('passes a run where every case was evaluated, whatever the allowance', () => {
    expect(tooManyFailed(casesOf(100, 0), maxFailedOf(undefined))).toBeUndefined();
  });

  it('fails a run with one failed case by default, naming how many, the first and its reason, and where the rest are', () => {
    expect(tooManyFailed(casesOf(100, 96), maxFailedOf(undefined))).toBe(
      '96 of 100 cases failed (more than --max-failed 0); the first: q001: chunk_relevance: the judge server answered 500 (q001); the report lists them all (report.json failed_cases)',
    );
  });

  it.each([
    // [total, failed, allowance, fails the gate]
    [10, 3, '3', false],
    [10, 4, '3', true],
    [10, 5, '50%', false], // 5 / 10 = 50%
    [10, 6, '50%', true],
    [3, 1, '33%', true], // 1 / 3 = 33.33...% > 33%
    [3, 1, '33.4%', false],
    [3000, 69, '2.3%', false], // exactly 2.3% (in floating point 2.3 * 3000 = 6899.999...): no rounding error refuses it
    [3000, 70, '2.3%', true],
    [7, 7, '100%', false],
    [10, 1, '0%', true],
  ])('%i cases, %i failed, --max-failed %s: fails the gate %s', (total, failed, allowance, fails) => {
    expect(tooManyFailed(casesOf(total, failed), maxFailedOf(allowance)) !== undefined).toBe(fails);
  });

  it('counts a missing case (the deadline passed first) as a failed one', () => {
    // Prepare: 2 failed, 1 missing, an allowance of 2
    const cases = casesOf(10, 2, 1);

    // Act
    const gate = tooManyFailed(cases, maxFailedOf('2'));

    // Assess
    expect(gate).toBe(
      "3 of 10 cases were not evaluated, 2 failed and 1 missing (the run's deadline passed before it ended) (more than --max-failed 2); the first: q001: chunk_relevance: the judge server answered 500 (q001); the report lists them all (report.json failed_cases and missing_cases)",
    );
  });

  it('names the first missing case when no case failed', () => {
    expect(tooManyFailed(casesOf(1, 0, 1), maxFailedOf('0%'))).toBe(
      "1 of 1 case is missing: the run's deadline passed before it ended (more than --max-failed 0%); the first: q001; the report lists them all (report.json missing_cases)",
    );
  });
});

describe('the gate on cases that lack a judgment', () => {
  it('fails a run whose only shortfall is a judgment in error, naming the case, the judge, its engines and the error', () => {
    // Prepare: 21 cases, all evaluated; 2 of them lack a judgment (3 entries)
    const cases = withJudgeFailures(casesOf(21, 0));

    // Act
    const gate = tooManyFailed(cases, maxFailedOf(undefined));

    // Assess
    expect(gate).toBe(
      '2 of 21 cases lack a judgment (more than --max-failed 0); the first: q0j1: judge correctness (engines a, b): the judge answered no JSON; the report lists them all (report.json failed_cases)',
    );
  });

  it('counts a case once however many judges failed on it', () => {
    // Prepare: 2 cases lacking a judgment through 3 entries, an allowance of 2
    const cases = withJudgeFailures(casesOf(21, 0));

    // Act / Assess
    expect(tooManyFailed(cases, maxFailedOf('2'))).toBeUndefined();
    expect(tooManyFailed(cases, maxFailedOf('1'))).toMatch(/^2 of 21 cases lack a judgment \(more than --max-failed 1\)/);
  });

  it('adds them to the failed and missing cases under one allowance, in one combined line', () => {
    // Prepare: 1 failed, 1 missing and 3 lacking a judgment: 5 of 21
    const cases = withJudgeFailures(casesOf(21, 1, 1), 1);

    // Act
    const gate = tooManyFailed(cases, maxFailedOf('4'));

    // Assess: the first entry of failed_cases, in report order, is the example
    expect(gate).toBe(
      "5 of 21 cases were not evaluated or lack a judgment: 1 failed, 1 missing (the run's deadline passed before it ended) and 3 lack a judgment (more than --max-failed 4); the first: q001: chunk_relevance: the judge server answered 500 (q001); the report lists them all (report.json failed_cases and missing_cases)",
    );
    expect(tooManyFailed(cases, maxFailedOf('5'))).toBeUndefined();
  });

  it.each([
    // [total, lacking a judgment, allowance, fails the gate]
    [10, 2, '2', false],
    [10, 3, '2', true],
    [10, 3, '30%', false],
    [10, 4, '30%', true],
  ])('%i cases, %i lacking a judgment, --max-failed %s: fails the gate %s', (total, lacking, allowance, fails) => {
    const cases = withJudgeFailures(casesOf(total, 0), lacking - 2);

    expect(tooManyFailed(cases, maxFailedOf(allowance)) !== undefined).toBe(fails);
  });

  it('warns, when the allowance passes them, how many cases lack a judgment and of which judges', () => {
    // Prepare: correctness lacking on 2 cases (q0j1, q0j2), chunk_relevance on 1
    const cases = withJudgeFailures(casesOf(21, 0));

    // Act
    const warning = judgeFailuresWarning(cases, maxFailedOf('10%'));

    // Assess
    expect(warning).toBe(
      "2 of 21 cases lack a judgment (chunk_relevance: 1, correctness: 2), within --max-failed 10%: those judges' metrics are averaged over fewer cases than were evaluated; report.json failed_cases lists them",
    );
  });

  it('does not warn when no judgment ended in error, nor for a report written before they were counted', () => {
    // Prepare: an older report has no judge_failed
    const { judge_failed: _counted, ...older } = casesOf(10, 1).cases;

    // Act / Assess
    expect(judgeFailuresWarning(casesOf(10, 1), maxFailedOf('1'))).toBeUndefined();
    expect(judgeFailuresWarning({ ...casesOf(10, 1), cases: older }, maxFailedOf('1'))).toBeUndefined();
    expect(tooManyFailed({ ...casesOf(10, 1), cases: older }, maxFailedOf('1'))).toBeUndefined();
  });
});
