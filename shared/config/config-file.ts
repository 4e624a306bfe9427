import type { Result } from '../schema/result.js';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { FileEncodingError, refuseForeignEncoding } from '../readers/file-encoding.js';
import { parseConfigText, type ConfigText } from './config-text.js';
import type { ConfigFile } from './config-schema.js';
import type { ModelEnvironment } from './judge-price-checks.js';
import { parseRunConfig } from './parse-run-config.js';

/** The value of a YAML (.yaml, .yml) or JSON (.json) config file, not yet checked; a one-line error names the file. */
export async function readConfigFile(path: string): Promise<ConfigText> {
  const extension = extname(path).toLowerCase();
  if (!['.yaml', '.yml', '.json'].includes(extension)) {
    return { ok: false, error: `${path}: cannot tell the format of the config file (fix: name it .yaml, .yml or .json)` };
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `${path}: cannot read the config file: ${reason} (fix: check the path and its permissions)` };
  }
  try {
    refuseForeignEncoding(bytes);
  } catch (error) {
    if (!(error instanceof FileEncodingError)) throw error;
    return { ok: false, error: `${path}: ${error.message} (fix: ${error.fix})` };
  }
  return parseConfigText(bytes.toString('utf8'), path, extension === '.json' ? 'json' : 'yaml');
}

/** Reads a config file and parses it (parseRunConfig). */
export async function loadConfigFile(path: string, environment?: ModelEnvironment): Promise<Result<ConfigFile>> {
  const read = await readConfigFile(path);
  return read.ok ? parseRunConfig(read.value, path, environment) : read;
}
