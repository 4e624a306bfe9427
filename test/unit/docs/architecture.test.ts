import { describe, expect, it } from 'vitest';
import { readRepositoryFile } from '../../support/markdown.js';
import { linesByRoom, packageImports, roomCircles, roomImports, sharedRooms } from '../../support/room-imports.js';

/** docs/architecture.md's table of rooms: each room's layer, from its rows "| `shared/schema/` | 1 | ... |". */
function layersOfRooms(): Map<string, number> {
  const rows = readRepositoryFile('docs/architecture.md').matchAll(/^\| `([a-z-]+(?:\/[a-z-]+)?)\/` \| (\d+) \|/gm);
  return new Map([...rows].map((row) => [row[1] as string, Number(row[2])]));
}

/** The plan of docs/architecture.md holds for the code: every room on a layer, imports only downward or level, no circle. */
describe('the rooms of the code', () => {
  const layers = layersOfRooms();
  const imports = roomImports();

  it('are each placed on a layer in docs/architecture.md', () => {
    // Act
    const unplaced = [...new Set([...sharedRooms(), ...imports.flatMap(({ from, to }) => [from, to])])].filter((room) => !layers.has(room));

    // Assess
    expect(layers.size).toBeGreaterThan(20);
    expect(unplaced).toEqual([]);
  });

  it('import no room on a higher layer', () => {
    // Act
    const upward = imports
      .filter(({ from, to }) => (layers.get(to) ?? 0) > (layers.get(from) ?? 0))
      .map(({ file, imported, from, to }) => `${file} imports ${imported}: layer ${layers.get(from)} to ${layers.get(to)}`);

    // Assess
    expect(imports.length).toBeGreaterThan(100);
    expect(upward).toEqual([]);
  });

  it('import each other in no circle', () => {
    // Act
    const circles = roomCircles(imports);

    // Assess
    expect(circles).toEqual([]);
  });

  it('leave Lambda to functions/: only it imports aws-lambda or Powertools, and cli/ imports nothing of it', () => {
    // Act
    const lambdaOutside = packageImports(/^(aws-lambda|@aws-lambda-powertools\/)/)
      .filter(({ file }) => !file.startsWith('functions/'))
      .map(({ file, imported }) => `${file} imports ${imported}`);
    const cliOnFunctions = imports
      .filter(({ from, to }) => from === 'cli' && to === 'functions')
      .map(({ file, imported }) => `${file} imports ${imported}`);

    // Assess: the two adapters stand side by side over the steps of shared/
    expect(packageImports(/^@aws-lambda-powertools\//).length).toBeGreaterThan(0);
    expect(lambdaOutside).toEqual([]);
    expect(cliOnFunctions).toEqual([]);
  });

  it('are none of them above 8% of the production lines', () => {
    // Arrange
    const lines = linesByRoom();
    const total = [...lines.values()].reduce((sum, count) => sum + count, 0);

    // Act
    const large = [...lines].filter(([, count]) => count > 0.08 * total).map(([room, count]) => `${room}: ${count} of ${total} lines`);

    // Assess: the rooms counted are the shared folder's, cli/'s folders, functions/ and infra/
    expect(lines.has('shared/judge-client')).toBe(true);
    expect(lines.has('cli/run')).toBe(true);
    expect(total).toBeGreaterThan(30_000);
    expect(large).toEqual([]);
  });
});
