import { configFileSchema, parseConfigText, parseRunConfig, type RunConfig } from '../config/index.js';
import type { ObjectStore } from '../ports/object-store.js';

/** Where a suite's config lives in the bucket: outside datasets/, so writing it starts no run. */
export const SUITE_CONFIG_KEYS = (suite: string): string[] => ['yaml', 'yml', 'json'].map((extension) => `config/${suite}.${extension}`);

/**
 * A suite's run config as ingest on AWS reads it: `config/<suite>.yaml` (or
 * .yml, .json) in the bucket, else the defaults. `assay submit` reads the
 * same way to tell the run id before the run starts.
 */
export async function suiteConfig(store: ObjectStore, suite: string): Promise<RunConfig> {
  for (const key of SUITE_CONFIG_KEYS(suite)) {
    const bytes = await store.get(key);
    if (bytes === undefined) continue;
    const text = new TextDecoder().decode(bytes);
    const parsed = await parseConfigText(text, key, key.endsWith('.json') ? 'json' : 'yaml');
    if (!parsed.ok) throw new Error(parsed.error);
    const checked = parseRunConfig(parsed.value ?? {}, key);
    if (!checked.ok) throw new Error(checked.error);
    return { ...checked.value, strict: false };
  }
  return { ...configFileSchema.parse({}), strict: false };
}
