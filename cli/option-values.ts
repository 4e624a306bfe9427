import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CREDENTIALS_PROBLEM, credentialsFix, hasCredentials } from '../shared/judge-client/judge-base-url.js';
import { BAD_PORT_FIX, badPortProblem, fetchRefusedPort } from '../shared/network/fetch-bad-ports.js';
import { pValueAdjustmentMethodSchema, type PValueAdjustmentMethod } from '../shared/schema/p-value-adjustment.js';
import { UsageError } from './usage-error.js';

/**
 * Checks of option values shared by the commands. Each fails with a
 * UsageError that says what it got and what it expects, before the command
 * starts any work.
 */

function rejected(option: string, value: string, expected: string): UsageError {
  return new UsageError(`${option} got "${value}"; expected ${expected}`);
}

/** A count of things at work at once (calls in flight, threads): from 1 to `maximum`, so a typo fails here instead of exhausting the machine. */
export function countUpTo(option: string, value: string, maximum: number): number {
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(number) || number < 1 || number > maximum)
    throw rejected(option, value, `an integer from 1 to ${maximum}`);
  return number;
}

export function positiveNumber(option: string, value: string, unit: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) throw rejected(option, value, `a number of ${unit} above 0`);
  return number;
}

/** The longest suite name: it names folders (`datasets/<suite>/`) and files (`config/<suite>.yaml`) of the store, well within a file system's 255 bytes. */
export const MAX_SUITE_NAME_LENGTH = 100;

export function suiteName(value: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(value) || value === '.' || value === '..' || value.length > MAX_SUITE_NAME_LENGTH) {
    throw rejected('--suite', value, `letters, digits, ".", "_" or "-", up to ${MAX_SUITE_NAME_LENGTH} characters`);
  }
  return value;
}

/** A run id as `assay run` prints it; anything else would name no run, or a path outside the run's folder. */
export function runId(value: string): string {
  if (!/^r-[0-9a-f]{16}$/.test(value)) throw rejected('the run id', value, 'r- and 16 hexadecimal digits, as assay run prints it');
  return value;
}

/** An http(s) URL: --aws-endpoint, OPENAI_BASE_URL. */
export function httpUrl(option: string, value: string, example: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw rejected(option, value, `an http or https URL such as ${example}`);
  return value;
}

/**
 * OPENAI_BASE_URL, checked when a key is set and the judge client will use it:
 * an http(s) URL without credentials, on a port fetch does not refuse.
 */
export function judgeBaseUrl(environment: Readonly<Record<string, string | undefined>>): string | undefined {
  const baseUrl = environment.OPENAI_BASE_URL?.trim();
  if (!environment.OPENAI_API_KEY?.trim() || !baseUrl) return undefined;
  httpUrl('OPENAI_BASE_URL', baseUrl, 'https://api.openai.com/v1');
  if (hasCredentials(baseUrl)) {
    // The value is not repeated: its password would be printed.
    throw new UsageError(`OPENAI_BASE_URL ${CREDENTIALS_PROBLEM}; ${credentialsFix(baseUrl)}`);
  }
  const port = fetchRefusedPort(baseUrl);
  // Each call would fail before any connection, and look like a network fault worth another try.
  if (port !== undefined) throw new UsageError(`OPENAI_BASE_URL ${baseUrl} ${badPortProblem(port)}; ${BAD_PORT_FIX}`);
  return baseUrl;
}

export function endpointUrl(value: string | undefined): string | undefined {
  return value === undefined ? undefined : httpUrl('--aws-endpoint', value, 'http://127.0.0.1:4566');
}

/**
 * Makes sure `folder` can hold files: creates it and creates and removes a
 * probe entry, so a file in the way or a read-only place fails the command at
 * once rather than after a whole run. The probe is a new folder (mkdtemp
 * picks an unused name), never a write to a fixed name a symbolic link could
 * stand at.
 */
export async function assertWritableFolder(option: string, folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
    const probe = await mkdtemp(join(folder, '.assay-write-check-'));
    await rm(probe, { recursive: true, force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    const reason =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'a file is in the way'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'it is not writable'
          : code === 'ENAMETOOLONG'
            ? 'a name in the path is longer than the file system allows, 255 bytes on most'
            : code;
    throw new UsageError(`${option} ${folder} cannot be used (${reason}); expected a folder that can be created and written`);
  }
}

/** How a family of p-values is adjusted (`--adjust`, `--leaderboard-adjust`): one of the methods of shared/statistics/p-value-adjustment.ts. */
export function adjustmentMethod(option: string, value: string): PValueAdjustmentMethod {
  const parsed = pValueAdjustmentMethodSchema.safeParse(value);
  if (!parsed.success) throw rejected(option, value, `one of ${pValueAdjustmentMethodSchema.options.join(', ')}`);
  return parsed.data;
}
