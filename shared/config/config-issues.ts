import { inputErrorLine } from '../schema/input-error-line.js';
import { issuePath, issueProblem, valueAt, type IssueWords, type ZodIssue } from '../schema/zod-issue-text.js';
import { FIXES, KNOWN_KEYS } from './config-fixes.js';

/** Types as a config file's reader names them: YAML's words, not JSON's. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a text',
  number: 'a number',
  int: 'a whole number',
  object: 'an object (mapping)',
  array: 'a list',
};

const CONFIG_WORDS: IssueWords = {
  expected: (expected) => TYPE_NAMES[expected] ?? expected,
  found: describeValue,
};

/** One zod issue of a config as error lines: the field, what is wrong (schema/zod-issue-text.ts) and how to fix it. */
export function describeConfigIssue(issue: ZodIssue, input: unknown, file: string): string[] {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  const which = judgeNamed(input, path);
  if (issue.code === 'unrecognized_keys') {
    const accepted = KNOWN_KEYS[pattern(path)] ?? [];
    return issue.keys.map((key) => {
      const secretFix =
        path[0] === 'engines'
          ? 'remove it: engine credentials come from the environment ({{env.NAME}} in headers, connection_env, the AWS credential chain), never from a file'
          : path[1] === 'azure'
            ? 'remove it: the Azure OpenAI key is read only from the AZURE_OPENAI_API_KEY environment variable, never from a file'
            : path[1] === 'bedrock'
              ? 'remove it: Bedrock judges sign with the AWS credential chain (environment, profile, role), never with a key from a file'
              : 'remove it: the API key is read only from the OPENAI_API_KEY environment variable, never from a file';
      const fix = /api.?key|secret|token|password/i.test(key)
        ? secretFix
        : `remove it or correct its spelling; the keys here are ${accepted.join(', ')}`;
      return inputErrorLine(file, formatPath([...path, key]) + which, 'unknown key', fix);
    });
  }
  const found = valueAt(input, path);
  // Checks that span several fields (engines) carry their own fix.
  const ownFix = issue.code === 'custom' && typeof issue.params?.fix === 'string' ? issue.params.fix : undefined;
  return [inputErrorLine(file, formatPath(path) + which, issueProblem(issue, found, CONFIG_WORDS), ownFix ?? fixFor(pattern(path)))];
}

/** ` (judge "tone")` or ` (engine "bm25")` when the path lies inside a named custom judge or engine, so the user finds it without counting. */
function judgeNamed(input: unknown, path: readonly (string | number)[]): string {
  if (path[0] === 'engines' && typeof path[1] === 'number') {
    const name = (valueAt(input, path.slice(0, 2)) as { name?: unknown } | undefined)?.name;
    return typeof name === 'string' ? ` (engine "${name}")` : '';
  }
  if (path[0] !== 'custom_judges' || typeof path[1] !== 'number') return '';
  const id = (valueAt(input, path.slice(0, 2)) as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? ` (judge "${id}")` : '';
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '';
  return `"${issuePath(path)}"`;
}

/** The fix of the field, or of its nearest parent that has one (a header, a matrix variable); never the whole file's. */
function fixFor(fieldPattern: string): string {
  const own = FIXES[fieldPattern];
  if (own !== undefined) return own;
  for (let parent = parentOf(fieldPattern); parent !== ''; parent = parentOf(parent)) {
    const fix = FIXES[parent];
    if (fix !== undefined) return fix;
  }
  return 'correct the value';
}

function parentOf(fieldPattern: string): string {
  return fieldPattern.replace(/(\.[^.[\]]*|\[\])$/, '');
}

function pattern(path: readonly (string | number)[]): string {
  // judge_settings is keyed by judge id, and judge.prices.models and judge.rate_limit.models by model: every key shares one pattern.
  const byModel = path[0] === 'judge' && (path[1] === 'prices' || path[1] === 'rate_limit') && path[2] === 'models' && path.length > 3;
  const general =
    path[0] === 'judge_settings' && path.length > 1
      ? ['judge_settings', '*', ...path.slice(2)]
      : byModel
        ? ['judge', path[1] as string, 'models', '*', ...path.slice(4)]
        : path;
  return issuePath(general).replace(/\[\d+\]/g, '[]');
}
