import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { readRepositoryFile } from '../../support/markdown.js';

/**
 * `npm ci` on every Node version the project supports installs without an
 * EBADENGINE warning: no locked package, dependency of a dependency included,
 * declares a Node range that leaves out the oldest version `engines` admits.
 * A package that wants a newer Node is replaced by an older release or pinned
 * under `overrides` (see docs/development.md).
 */
interface LockedPackage {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
}

const manifest = JSON.parse(readRepositoryFile('package.json')) as { engines: { node: string } };
const lock = JSON.parse(readRepositoryFile('package-lock.json')) as { packages: Record<string, LockedPackage> };
const oldestSupported = semver.minVersion(manifest.engines.node)?.version ?? '';

describe('the Node versions the project supports', () => {
  it('start at a release the range names', () => {
    expect(oldestSupported).toBe('20.19.0');
  });

  it('are admitted by every locked package', () => {
    // Act
    const refusing = Object.entries(lock.packages).flatMap(([path, locked]) => {
      const range = Array.isArray(locked.engines) ? undefined : (locked.engines as { node?: string } | undefined)?.node;
      return path === '' || range === undefined || semver.satisfies(oldestSupported, range)
        ? []
        : [`${path}@${locked.version ?? '?'} wants node ${range}`];
    });

    // Assess
    expect(refusing).toEqual([]);
  });
});
