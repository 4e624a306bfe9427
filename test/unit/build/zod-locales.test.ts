import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI_FOLDER } from '../../../scripts/build-cli.js';

/**
 * The built CLI carries zod's English messages and no other locale's
 * (scripts/build-cli.ts): every locale cost each command's start the
 * compiling of 300 KB it never ran. The vitest global setup builds the CLI
 * from the current source first.
 */
function builtText(): string {
  const chunks = join(BUILT_CLI_FOLDER, 'chunks');
  return readdirSync(chunks)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(chunks, name), 'utf8'))
    .join('\n');
}

describe('zod in the built CLI', () => {
  it("keeps English, zod's own locale, and leaves the others out", () => {
    // Act
    const text = builtText();

    // Assess: an English message of zod's is there; the same message in Dutch and in Indonesian (ASCII, as the build writes it) is not
    expect(text).toContain('Invalid input: expected');
    expect(text).not.toContain('Ongeldige invoer: verwacht');
    expect(text).not.toContain('Input tidak valid: diharapkan');
  });
});
