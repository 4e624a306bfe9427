import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageVersionOf } from './package-folder.js';

/**
 * A new, empty PGlite database (Postgres in WebAssembly, in this process).
 * Creating one runs initdb: seconds of CPU. The first creation on a machine
 * keeps a dump of the empty cluster in the temp directory, one per PGlite
 * version and user (`assay-pglite-<version>-<uid>.tar`, TMPDIR moves it); a
 * later one loads it, in a fraction of a second. Each database is its own:
 * a dump is only ever read.
 */
export async function freshPglite(options: Omit<PGliteOptions, 'loadDataDir'> = {}): Promise<PGlite> {
  const dump = emptyClusterDump();
  if (existsSync(dump)) return PGlite.create({ ...options, loadDataDir: new Blob([await readFile(dump)]) });
  const database = await PGlite.create(options);
  // Written beside, then renamed into place: a concurrent creator never reads half a dump.
  const staging = `${dump}.${process.pid}-${Date.now()}`;
  try {
    await writeFile(staging, Buffer.from(await (await database.dumpDataDir('none')).arrayBuffer()));
    await rename(staging, dump);
  } finally {
    await rm(staging, { force: true });
  }
  return database;
}

function emptyClusterDump(): string {
  return join(tmpdir(), `assay-pglite-${packageVersionOf('@electric-sql/pglite')}-${process.getuid?.() ?? 0}.tar`);
}
