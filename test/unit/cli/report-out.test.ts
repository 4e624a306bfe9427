import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertWritableFolder } from '../../../cli/option-values.js';
import { copyReportFiles } from '../../../cli/run/report-out.js';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
let victim: string;
beforeEach(async () => {
  folder = await createTempFolder();
  // A file outside --out that a link planted inside it points to.
  victim = await folder.write('victim.txt', 'precious\n');
});
afterEach(async () => {
  await folder.remove();
});

describe('--out never writes through a symbolic link it did not create', () => {
  it('replaces a link planted at a report file name with the report, leaving its target alone', async () => {
    // Prepare
    const store = new LocalFolderStore(join(folder.path, 'store'));
    await store.put('reports/s/r/report.json', '{"run_id": "r"}\n');
    await store.put('reports/s/r/report.md', '# r\n');
    const out = join(folder.path, 'out');
    await mkdir(out);
    await symlink(victim, join(out, 'report.json'));

    // Act
    const files = await copyReportFiles(store, (name) => `reports/s/r/${name}`, ['report.json', 'report.md', 'cases.jsonl'], out);

    // Assess
    expect(files).toEqual([join(out, 'report.json'), join(out, 'report.md')]);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect((await lstat(join(out, 'report.json'))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe('{"run_id": "r"}\n');
  });

  it('checks that --out is writable without writing through a link at its probe name', async () => {
    // Prepare
    const out = join(folder.path, 'out');
    await mkdir(out);
    await symlink(victim, join(out, `.assay-write-check-${process.pid}`));

    // Act
    await assertWritableFolder('--out', out);

    // Assess
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
  });

  it('still writes into an --out folder that is itself a link the user gave', async () => {
    // Prepare
    const store = new LocalFolderStore(join(folder.path, 'store'));
    await store.put('reports/s/r/report.json', '{}\n');
    const real = join(folder.path, 'real-out');
    await mkdir(real);
    const linked = join(folder.path, 'linked-out');
    await symlink(real, linked);
    await writeFile(join(real, 'report.json'), 'old\n');

    // Act
    await copyReportFiles(store, (name) => `reports/s/r/${name}`, ['report.json'], linked);

    // Assess
    expect(await readFile(join(real, 'report.json'), 'utf8')).toBe('{}\n');
  });
});
