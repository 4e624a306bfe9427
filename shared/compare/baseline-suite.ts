import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import { runKeys } from '../run/run-identity.js';
import type { Result } from '../schema/result.js';
import { parseJsonWith } from '../schema/parse-json-with.js';

/** The suite a run goes to when nothing names one, as `assay run --suite` defaults. */
const DEFAULT_SUITE = 'default';

/**
 * Only the suite of a manifest is read here: a manifest written by another
 * version of assay still names it. It becomes part of a key, so it must be a
 * name `--suite` would take; a store written by hand may hold anything.
 */
const suiteOfManifest = z.object({
  suite: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/)
    .refine((suite) => suite !== '.' && suite !== '..'),
});

/**
 * The suite whose baseline a run becomes: the one its manifest names, which
 * is where its report was written. A `--suite` that names another suite is
 * refused, with the manifest's. Without a readable manifest (a deployed
 * bucket expires `runs/` before `reports/`) the given suite, else the
 * default one, is taken at its word, and setBaseline checks that the run has
 * a report there.
 */
export async function baselineSuite(store: ObjectStore, runId: string, given: string | undefined): Promise<Result<string>> {
  const bytes = await store.get(runKeys.manifest(runId));
  const manifest = bytes === undefined ? undefined : parseJsonWith(suiteOfManifest, bytes);
  if (manifest === undefined || !manifest.ok) return { ok: true, value: given ?? DEFAULT_SUITE };
  const { suite } = manifest.value;
  if (given === undefined || given === suite) return { ok: true, value: suite };
  return {
    ok: false,
    error: `run ${runId} is in suite ${suite} (its manifest says so), not ${given}; leave out --suite, or give --suite ${suite}`,
  };
}
