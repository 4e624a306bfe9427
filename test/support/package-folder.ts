import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** An installed package's own folder, above its entry file wherever the package keeps that (its exports may hide package.json). */
export function packageFolderOf(name: string): string {
  const entry = require.resolve(name);
  for (let folder = dirname(entry); folder !== dirname(folder); folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return folder;
  }
  throw new Error(`No package.json of ${name} above ${entry}`);
}

/** An installed package's version, from its package.json. */
export function packageVersionOf(name: string): string {
  return (JSON.parse(readFileSync(join(packageFolderOf(name), 'package.json'), 'utf8')) as { version: string }).version;
}
