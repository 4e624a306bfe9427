import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import type { Result } from '../shared/schema/result.js';

/**
 * The options of the benches (every bench file of this folder), read from
 * the strings node:util's parseArgs gives them, through one zod schema a
 * bench. A bad value is refused before the bench starts anything (a server,
 * a build, a temporary folder): one line an option on stderr, naming the
 * option, what it takes and what it got, then exit code 2, as a usage error
 * of the CLI. A bare `Number()` turned `--repeat 0` or `--latency abc` into
 * NaN medians minutes later. The command line itself is read the same way
 * (`benchArgs`): an option the bench does not know, or one missing its value,
 * is one line and exit code 2, not parseArgs' stack trace.
 */

/** What parseArgs gives for `config` (the bench's options) read from the command line. */
type ParsedArgs<Config extends ParseArgsConfig> = ReturnType<typeof parseArgs<Config>>;

/**
 * The command line read against the bench's options, or the line saying why
 * it cannot be: `bench:judge-cpu: Unknown option '--repeats'. …`. Errors of
 * parseArgs (an unknown option, a missing or ambiguous value, a stray
 * argument) are refusals; anything else it throws is a bug and is thrown.
 */
export function readBenchArgs<Config extends ParseArgsConfig>(bench: string, config: Config): Result<ParsedArgs<Config>, string> {
  try {
    return { ok: true, value: parseArgs(config) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // parseArgs words some refusals over several lines (an ambiguous value): one line each, as the option errors are.
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))
      return { ok: false, error: `${bench}: ${(error as Error).message.replaceAll('\n', ' ')}` };
    throw error;
  }
}

/** The command line as parseArgs reads it for `config`; refused, one line on stderr and exit code 2. */
export function benchArgs<Config extends ParseArgsConfig>(bench: string, config: Config): ParsedArgs<Config> {
  const read = readBenchArgs(bench, config);
  if (read.ok) return read.value;
  console.error(read.error);
  process.exit(2);
}

/** A string option whose text becomes a number; its message says what it takes. */
type NumberOption = z.ZodType<number, string>;

/** A number in decimal digits that `admits` allows; `expected` is what the error says it takes. */
function decimal(pattern: RegExp, expected: string, admits: (value: number) => boolean): NumberOption {
  return z
    .string()
    .refine((text) => pattern.test(text) && admits(Number(text)), expected)
    .transform(Number);
}

/** A whole number from `least` (to `most`), in decimal digits: counts, rounds, seeds, calls in flight. */
export function wholeNumber(least: number, most?: number): NumberOption {
  const expected = most === undefined ? `a whole number of at least ${least}` : `a whole number from ${least} to ${most}`;
  return decimal(/^\d+$/, expected, (value) => Number.isSafeInteger(value) && value >= least && (most === undefined || value <= most));
}

/** A seed of the benches' generators, which take it modulo 2^32: from 0 to 2^32 - 1. */
export function seed(): NumberOption {
  return wholeNumber(0, 2 ** 32 - 1);
}

/** A number of 0 or more, such as a latency in milliseconds (0: none). */
export function nonNegativeNumber(): NumberOption {
  return decimal(/^\d+(\.\d+)?$/, 'a number of at least 0', Number.isFinite);
}

/** A number above 0: a size, or a latency the figure divides by. */
export function positiveNumber(): NumberOption {
  return decimal(/^\d+(\.\d+)?$/, 'a number above 0', (value) => Number.isFinite(value) && value > 0);
}

/** One of `choices`, as the bench spells them. */
export function oneOf<const Choice extends string>(choices: readonly [Choice, ...Choice[]]): z.ZodType<Choice, string> {
  const expected = choices.length === 1 ? choices[0] : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  return z.enum(choices, { error: expected });
}

/** Comma-separated items, each read by `item` (`--latency 50,500`); at least one. */
export function listOf<Item>(item: z.ZodType<Item, string>): z.ZodType<Item[], string> {
  return z.string().transform((text, context) => {
    const items: Item[] = [];
    for (const piece of text.split(',')) {
      const parsed = item.safeParse(piece);
      if (!parsed.success) {
        context.addIssue({ code: 'custom', message: `a comma-separated list, each item ${parsed.error.issues[0]?.message}` });
        return z.NEVER;
      }
      items.push(parsed.data);
    }
    return items;
  });
}

/**
 * `schema` with checks across its options, run only once each option has
 * parsed alone: `refuse(option, expected)` refuses one, as its own parse would.
 */
export function crossChecked<Schema extends z.ZodObject>(
  schema: Schema,
  check: (options: z.output<Schema>, refuse: (option: string, expected: string) => void) => void,
): Schema {
  return schema.superRefine((options, context) => {
    if (context.issues.length > 0) return;
    check(options, (option, expected) => context.addIssue({ code: 'custom', path: [option], message: expected }));
  });
}

/** parseArgs' values with those the schema reads replaced by what it makes of them. */
export type BenchOptions<Values, Schema extends z.ZodObject> = Omit<Values, keyof z.output<Schema>> & z.output<Schema>;

/** The bench's options, or the lines saying each option refused. */
export type ReadOptions<Values, Schema extends z.ZodObject> = Result<BenchOptions<Values, Schema>, readonly string[]>;

/** The bench's options, or one line an option refused: `bench:judge-throughput: --repeat must be …, got "0"`. */
export function readBenchOptions<Values extends Record<string, unknown>, Schema extends z.ZodObject>(
  bench: string,
  schema: Schema,
  values: Values,
): ReadOptions<Values, Schema> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, value: { ...values, ...parsed.data } };
  const refused = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const option = String(issue.path[0]);
    if (refused.has(option)) continue;
    const given = values[option];
    refused.set(option, `${bench}: --${option} must be ${issue.message}${given === undefined ? '' : `, got "${String(given)}"`}`);
  }
  return { ok: false, error: [...refused.values()] };
}

/** The bench's options; any refused are written to stderr, a line each, and the process exits with code 2. */
export function benchOptions<Values extends Record<string, unknown>, Schema extends z.ZodObject>(
  bench: string,
  schema: Schema,
  values: Values,
): BenchOptions<Values, Schema> {
  const read = readBenchOptions(bench, schema, values);
  if (read.ok) return read.value;
  for (const line of read.error) console.error(line);
  process.exit(2);
}
