import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A worker thread's built entry, `name` beside the built main.js
 * (dist/cli/), seen from the module at `from` (dist/cli/ itself, or a chunk in
 * dist/cli/chunks/); undefined where there is none: from the TypeScript source
 * (npm run assay, the tests' in-process CLI) the work stays in this thread.
 */
export function builtEntry(from: string, name: string): URL | undefined {
  for (const relative of [`./${name}`, `../${name}`]) {
    const url = new URL(relative, from);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}
