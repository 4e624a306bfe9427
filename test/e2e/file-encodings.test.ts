import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * Files that are not UTF-8 text, through the built CLI: a dataset saved by
 * Windows PowerShell 5 (`>` and `Out-File` write UTF-16LE behind a byte-order
 * mark), and gzipped datasets and run files. One error for the file that
 * says what it is and how to convert it, where reading it as UTF-8 gave an
 * error a line naming NUL bytes, or binary.
 */
let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(async () => {
  await folder.remove();
});

const ROWS = `${JSON.stringify({ request: 'How do I rotate a key?' })}\r\n${JSON.stringify({ request: 'What limits apply?' })}\r\n`;
const UTF16_ERROR =
  'the file is UTF-16LE (it starts with the bytes FF FE); assay reads UTF-8 text (fix: save it as UTF-8, e.g. ' +
  'iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8 (Windows PowerShell 5 writes UTF-16 with > and Out-File; give Out-File -Encoding utf8))';

const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

describe('a dataset in UTF-16', () => {
  it('is one input error in assay validate, which exits 1 saying no case could be read', async () => {
    // Prepare
    const dataset = await folder.write('powershell.jsonl', utf16le(ROWS));

    // Act
    const outcome = await runBuiltCli(['validate', dataset]);

    // Assess
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stdout).toContain(`errors: 1\n  ${dataset}: ${UTF16_ERROR}\n`);
    expect(outcome.stderr).toBe('assay validate: 1 input error; no case could be read\n');
  });

  it('still calls the other rows valid when some are', async () => {
    // Prepare: one good row, one bad
    const dataset = await folder.write('one-bad.jsonl', `${JSON.stringify({ request: 'ok' })}\n${JSON.stringify({ request: 5 })}\n`);

    // Act
    const outcome = await runBuiltCli(['validate', dataset]);

    // Assess
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toBe('assay validate: 1 input error; the other rows are valid\n');
  });

  it('is a usage error in assay validate where its name does not tell the format, saying what the file is', async () => {
    // Prepare: qrels from PowerShell, named .txt, whose kind validate reads from the lines
    const qrels = await folder.write('qrels.txt', utf16le('301 0 d1 1\r\n'));

    // Act
    const outcome = await runBuiltCli(['validate', qrels]);

    // Assess: not an unexpected error with a stack trace to ask for
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(`assay validate: ${qrels}: ${UTF16_ERROR}\n`);
  });

  it('stops assay run with exit 1, naming the file and how to convert it', async () => {
    // Prepare
    const dataset = await folder.write('powershell-run.jsonl', utf16le(ROWS));

    // Act
    const outcome = await runBuiltCli(['run', dataset, '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')]);

    // Assess
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toContain(
      `assay run: no case to evaluate: no row of datasets/default/powershell-run.jsonl is valid (1 input error; the first: datasets/default/powershell-run.jsonl: ${UTF16_ERROR})`,
    );
  });
});

describe('a gzipped dataset or run file', () => {
  it('stops assay run before the run starts, naming what the file is and how to decompress it, though its name does not tell the format', async () => {
    // Prepare
    const dataset = await folder.write('rows.jsonl.gz', gzipSync(ROWS));
    const store = join(folder.path, 'gz-store');

    // Act
    const outcome = await runBuiltCli(['run', dataset, '--store', store, '--out', join(folder.path, 'gz-out')]);

    // Assess: not "cannot tell the dataset format from the file name", and a usage error as in assay validate: no run was made
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(
      `assay run: ${dataset}: the file is gzip-compressed (it starts with the bytes 1F 8B); assay reads UTF-8 text ` +
        '(fix: decompress it first, e.g. gunzip -k FILE, and give the file it writes)\n',
    );
    expect(existsSync(store)).toBe(false);
  });

  it('is a usage error in assay ir-metrics, as a gzipped run file', async () => {
    // Prepare
    const qrels = await folder.write('plain.qrels', '301 0 d1 1\n');
    const run = await folder.write('run.txt.gz', gzipSync('301 Q0 d1 1 2.5 bm25\n'));

    // Act
    const outcome = await runBuiltCli(['ir-metrics', qrels, run]);

    // Assess
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(
      `assay ir-metrics: ${run}: the file is gzip-compressed (it starts with the bytes 1F 8B); assay reads UTF-8 text ` +
        '(fix: decompress it first, e.g. gunzip -k FILE, and give the file it writes)\n',
    );
  });
});
