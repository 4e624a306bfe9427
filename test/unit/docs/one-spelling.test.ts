import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../support/markdown.js';

/**
 * Words the project spells one way only, in identifiers, comments, messages
 * and pages alike, so that a search for one finds every use: each pattern
 * matches the spelling not to use (written so that it does not match itself).
 */
const OTHER_SPELLINGS: readonly RegExp[] = [/judg(e)ment/i];

/** The committed files a person writes: source and pages, not the lock file or test fixtures copied from elsewhere. */
function writtenFiles(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: REPOSITORY_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter((path) => /\.(ts|md|js|json|ya?ml)$/.test(path) && path !== 'package-lock.json' && !path.startsWith('test/fixtures/'));
}

describe('spelling of the repository', () => {
  it('spells judgment one way', () => {
    // Act
    const found = writtenFiles().flatMap((path) =>
      readFileSync(join(REPOSITORY_ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (OTHER_SPELLINGS.some((pattern) => pattern.test(line)) ? [`${path}:${index + 1}`] : [])),
    );

    // Assess
    expect(writtenFiles().length).toBeGreaterThan(500);
    expect(found).toEqual([]);
  });
});
