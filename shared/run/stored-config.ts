import { parseRunConfig, type RunConfig } from '../config/index.js';
import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { manifestSchema, type Manifest } from '../schema/run-records.js';
import { runKeys } from './run-identity.js';

/** A run's stored config does not parse: a manifest hand-edited, or written by an assay that had other settings. */
export class StoredConfigError extends Error {
  override readonly name = 'StoredConfigError';
}

/** Parsed configs by their stored text: every case of a run reads the manifest, and parsing it again each time would add up. */
const parsed = new Map<string, RunConfig>();
const MOST_KEPT = 32;

/**
 * The run's config as its manifest stores it, parsed as a config file is
 * (parseRunConfig): defaults fill keys an older manifest lacks, and a config
 * that does not parse throws StoredConfigError naming the run, the field and
 * the fix.
 */
export function runConfigOf(manifest: Manifest): RunConfig {
  const text = JSON.stringify(manifest.config);
  const known = parsed.get(text);
  if (known !== undefined) return known;
  const parse = parseRunConfig(manifest.config, { runId: manifest.run_id, manifestKey: runKeys.manifest(manifest.run_id) });
  if (!parse.ok) throw new StoredConfigError(parse.error);
  if (parsed.size >= MOST_KEPT) parsed.clear();
  parsed.set(text, parse.value);
  return parse.value;
}

/**
 * The run's manifest, read once per store and run: ingest writes a manifest
 * only where there is none, so it never changes, and the judge worker, which
 * needs it for every case, reads it once per run rather than once per case
 * (a file read locally, a GET on S3). The runs of a few stores are kept.
 */
export async function knownManifest(store: ObjectStore, runId: string): Promise<Manifest> {
  let manifests = manifestsByStore.get(store);
  if (manifests === undefined) {
    manifests = new Map();
    manifestsByStore.set(store, manifests);
  }
  const known = manifests.get(runId);
  if (known !== undefined) return known;
  const manifest = await readManifest(store, runId);
  if (manifests.size >= MOST_KEPT) manifests.clear();
  manifests.set(runId, manifest);
  return manifest;
}

const manifestsByStore = new WeakMap<ObjectStore, Map<string, Manifest>>();

/** The run's manifest as stored; a run without one is a bug of the caller (every handler runs after ingest wrote it). */
export async function readManifest(store: ObjectStore, runId: string): Promise<Manifest> {
  const bytes = await store.get(runKeys.manifest(runId));
  if (bytes === undefined) throw new Error(`Run ${runId} has no manifest (${runKeys.manifest(runId)})`);
  return readJsonWith(manifestSchema, bytes, runKeys.manifest(runId));
}
