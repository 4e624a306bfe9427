import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../support/markdown.js';

/**
 * A package is loaded lazily by importing, with `await import('./module.js')`,
 * a module of the project that imports the package statically, never by
 * `await import('package')`: in the CLI's split bundle a CommonJS package
 * imported dynamically by name keeps only its `default` export, so its named
 * exports are undefined in the build while the source works (every YAML config
 * once failed that way). Node's own modules (`node:...`) are not bundled.
 */
const FOLDERS = ['cli', 'shared', 'functions'];
/** The launcher: Node runs it as it is, unbundled, to start the build (or the source through tsx when there is none). */
const UNBUNDLED = new Set(['cli/bin.js']);
const DYNAMIC_IMPORT = /\bimport\(\s*['"`]([^'"`]+)['"`]\s*\)/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(REPOSITORY_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('lazily loaded packages', () => {
  it('are loaded through a module of the project, never imported dynamically by name', () => {
    // Act
    const byName = FOLDERS.flatMap(sourceFiles)
      .filter((path) => !UNBUNDLED.has(path))
      .flatMap((path) =>
        [...readFileSync(join(REPOSITORY_ROOT, path), 'utf8').matchAll(DYNAMIC_IMPORT)]
          .map((match) => match[1] ?? '')
          .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
          .map((specifier) => `${path}: import('${specifier}')`),
      );

    // Assess
    expect(byName).toEqual([]);
  });

  it('finds a dynamic import by name where there is one', () => {
    expect([..."const { parseDocument } = await import('yaml');".matchAll(DYNAMIC_IMPORT)].map((match) => match[1])).toEqual(['yaml']);
  });
});
