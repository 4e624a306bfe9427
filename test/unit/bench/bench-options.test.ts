import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  benchArgs,
  benchOptions,
  crossChecked,
  listOf,
  nonNegativeNumber,
  oneOf,
  positiveNumber,
  readBenchArgs,
  readBenchOptions,
  seed,
  wholeNumber,
} from '../../../bench/bench-options.js';

/** Options of the kinds the benches take, as parseArgs hands them over: strings, or undefined when not given. */
const schema = z.object({
  repeat: wholeNumber(1),
  concurrency: wholeNumber(1, 1000),
  seed: seed(),
  latency: nonNegativeNumber(),
  mib: positiveNumber(),
  latencies: listOf(nonNegativeNumber()),
  limiter: listOf(oneOf(['window', 'bucket'])),
  part: oneOf(['large', 'many', 'all']),
  reference: wholeNumber(1).optional(),
});

const GOOD = {
  repeat: '3',
  concurrency: '16',
  seed: '2026',
  latency: '0',
  mib: '0.5',
  latencies: '50,500',
  limiter: 'window,bucket',
  part: 'all',
  reference: undefined,
  'reference-cli': '/elsewhere/cli/bin.js',
};

describe('readBenchOptions', () => {
  it('turns good values into numbers and lists, and keeps the options the schema does not read', () => {
    // Act
    const read = readBenchOptions('bench:example', schema, GOOD);

    // Assess
    expect(read).toEqual({
      ok: true,
      value: {
        repeat: 3,
        concurrency: 16,
        seed: 2026,
        latency: 0,
        mib: 0.5,
        latencies: [50, 500],
        limiter: ['window', 'bucket'],
        part: 'all',
        reference: undefined,
        'reference-cli': '/elsewhere/cli/bin.js',
      },
    });
  });

  it('reads the bounds themselves as good: the least and the most a whole number may be, the largest seed', () => {
    // Act
    const read = readBenchOptions('bench:example', schema, {
      ...GOOD,
      repeat: '1',
      concurrency: '1000',
      seed: '4294967295',
      reference: '1',
    });

    // Assess
    expect(read.ok && [read.value.repeat, read.value.concurrency, read.value.seed, read.value.reference]).toEqual([1, 1000, 4294967295, 1]);
  });

  it.each([
    ['repeat', '0', 'a whole number of at least 1'],
    ['repeat', 'abc', 'a whole number of at least 1'],
    ['repeat', '2.5', 'a whole number of at least 1'],
    ['repeat', '', 'a whole number of at least 1'],
    ['repeat', '1e3', 'a whole number of at least 1'],
    ['repeat', ' 3', 'a whole number of at least 1'],
    ['repeat', '99999999999999999999', 'a whole number of at least 1'],
    ['concurrency', '1001', 'a whole number from 1 to 1000'],
    ['seed', '-1', 'a whole number from 0 to 4294967295'],
    ['seed', '4294967296', 'a whole number from 0 to 4294967295'],
    ['latency', '-5', 'a number of at least 0'],
    ['latency', 'fast', 'a number of at least 0'],
    ['latency', 'Infinity', 'a number of at least 0'],
    ['latency', '5.', 'a number of at least 0'],
    ['mib', '0', 'a number above 0'],
    ['latencies', '50,abc', 'a comma-separated list, each item a number of at least 0'],
    ['latencies', '50,,500', 'a comma-separated list, each item a number of at least 0'],
    ['latencies', '', 'a comma-separated list, each item a number of at least 0'],
    ['limiter', 'window,foo', 'a comma-separated list, each item window or bucket'],
    ['part', 'huge', 'large, many or all'],
    ['reference', '0', 'a whole number of at least 1'],
  ])('refuses --%s "%s": it must be %s', (option, given, expected) => {
    // Act
    const read = readBenchOptions('bench:example', schema, { ...GOOD, [option]: given });

    // Assess
    expect(read).toEqual({ ok: false, error: [`bench:example: --${option} must be ${expected}, got "${given}"`] });
  });

  it('gives one line for each option refused, in the order of the schema', () => {
    // Act
    const read = readBenchOptions('bench:judge-throughput', schema, { ...GOOD, part: 'fast', repeat: '0', latency: 'x' });

    // Assess
    expect(read).toEqual({
      ok: false,
      error: [
        'bench:judge-throughput: --repeat must be a whole number of at least 1, got "0"',
        'bench:judge-throughput: --latency must be a number of at least 0, got "x"',
        'bench:judge-throughput: --part must be large, many or all, got "fast"',
      ],
    });
  });
});

describe('crossChecked', () => {
  const pair = crossChecked(
    z.object({ small: wholeNumber(1), large: wholeNumber(1), repeat: wholeNumber(0), profile: z.string().optional() }),
    (options, refuse) => {
      if (options.small >= options.large) refuse('small', `below --large (${options.large})`);
      if (options.repeat === 0 && options.profile === undefined) refuse('repeat', 'at least 1 without --profile DIR');
    },
  );

  it('refuses an option by what the others are, once each has parsed alone', () => {
    // Act
    const read = readBenchOptions('bench:judge-cpu', pair, { small: '1000', large: '200', repeat: '0' });

    // Assess
    expect(read).toEqual({
      ok: false,
      error: [
        'bench:judge-cpu: --small must be below --large (200), got "1000"',
        'bench:judge-cpu: --repeat must be at least 1 without --profile DIR, got "0"',
      ],
    });
  });

  it('does not check across options while one of them is refused on its own', () => {
    // Act
    const read = readBenchOptions('bench:judge-cpu', pair, { small: '1000', large: 'many', repeat: '0' });

    // Assess
    expect(read).toEqual({ ok: false, error: ['bench:judge-cpu: --large must be a whole number of at least 1, got "many"'] });
  });

  it('lets through what the check allows', () => {
    // Act
    const read = readBenchOptions('bench:judge-cpu', pair, { small: '200', large: '1000', repeat: '0', profile: '/tmp/profiles' });

    // Assess
    expect(read).toEqual({ ok: true, value: { small: 200, large: 1000, repeat: 0, profile: '/tmp/profiles' } });
  });
});

describe('benchOptions', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes each refused option to stderr and exits with code 2', () => {
    // Prepare
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });

    // Act
    const reading = () => benchOptions('bench:example', schema, { ...GOOD, repeat: '0', mib: '-1' });

    // Assess
    expect(reading).toThrow('exit 2');
    expect(exit).toHaveBeenCalledWith(2);
    expect(printed.mock.calls).toEqual([
      ['bench:example: --repeat must be a whole number of at least 1, got "0"'],
      ['bench:example: --mib must be a number above 0, got "-1"'],
    ]);
  });

  it('returns good options without writing anything', () => {
    // Prepare
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});

    // Act
    const options = benchOptions('bench:example', schema, GOOD);

    // Assess
    expect(options.latencies).toEqual([50, 500]);
    expect(printed).not.toHaveBeenCalled();
  });
});

/** Options as a bench declares them to parseArgs: strings with defaults, a flag. */
const ARGS_OPTIONS = {
  repeat: { type: 'string', default: '3' },
  latency: { type: 'string', default: '50' },
  profile: { type: 'boolean' },
} as const;

describe('readBenchArgs', () => {
  it('reads a good command line as parseArgs does', () => {
    // Act
    const read = readBenchArgs('bench:example', { options: ARGS_OPTIONS, args: ['--repeat', '5', '--latency=-5', '--profile'] });

    // Assess
    expect(read).toEqual({ ok: true, value: { values: { repeat: '5', latency: '-5', profile: true }, positionals: [] } });
  });

  it.each([
    { case: 'an option the bench does not know', args: ['--repeats', '5'], says: "Unknown option '--repeats'" },
    { case: 'an option without its value', args: ['--repeat'], says: "Option '--repeat <value>' argument missing" },
    { case: 'a value that looks like an option', args: ['--latency', '-5'], says: "'--latency=-XYZ'" },
    { case: 'a stray argument', args: ['5'], says: "Unexpected argument '5'" },
  ])('refuses $case in one line naming the bench', ({ args, says }) => {
    // Act
    const read = readBenchArgs('bench:example', { options: ARGS_OPTIONS, args });

    // Assess
    expect(read.ok).toBe(false);
    const line = read.ok ? '' : read.error;
    expect(line.startsWith('bench:example: ')).toBe(true);
    expect(line).toContain(says);
    expect(line).not.toContain('\n');
  });

  it('throws what is not a refusal of the command line', () => {
    // Act
    const reading = () => readBenchArgs('bench:example', { options: { repeat: { type: 'number' } } as never, args: [] });

    // Assess
    expect(reading).toThrow(TypeError);
  });
});

describe('benchArgs', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes a refused command line to stderr and exits with code 2', () => {
    // Prepare
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });

    // Act
    const reading = () => benchArgs('bench:example', { options: ARGS_OPTIONS, args: ['--repeats', '5'] });

    // Assess
    expect(reading).toThrow('exit 2');
    expect(exit).toHaveBeenCalledWith(2);
    expect(printed).toHaveBeenCalledTimes(1);
    expect(String(printed.mock.calls[0]?.[0])).toMatch(/^bench:example: Unknown option '--repeats'/);
  });
});
