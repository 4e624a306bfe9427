import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'cli', 'bin.js');

export interface AssayRunFigures {
  readonly seconds: number;
  /** The process's peak resident memory, its worker threads included. */
  readonly peakMiB: number;
  readonly runId: string;
  readonly cases: Record<string, number>;
}

/**
 * `assay run DATASET` as a user starts it (the built CLI, with the node
 * options of its shebang line), embedded, ground-truth metrics only
 * (`--judges document_recall`), over a store of its own (`folder/<name>-store`:
 * a second run in one store would be compared with the first): its wall time and peak
 * resident memory, which a preload (peak-at-exit.mjs) reads as the process
 * exits.
 */
export async function timeAssayRun(dataset: string, folder: string, name: string): Promise<AssayRunFigures> {
  const peakFile = join(folder, `${name}.peak`);
  const out = join(folder, `${name}-report`);
  const args = [
    'run',
    dataset,
    '--judges',
    'document_recall',
    '--no-cache',
    '--concurrency',
    '16',
    '--suite',
    'scale',
    '--store',
    join(folder, `${name}-store`),
    '--out',
    out,
  ];
  const started = performance.now();
  const child = spawn(process.execPath, [...shebangOptions(), '--import', join(import.meta.dirname, 'peak-at-exit.mjs'), bin, ...args], {
    env: { ...process.env, ASSAY_BENCH_PEAK_FILE: peakFile, OPENAI_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderrTail = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  // Only the end: a long run prints a progress line every few seconds.
  child.stderr.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-4_000);
  });
  const [code] = (await once(child, 'close')) as [number];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`assay run exited with ${code}:\n${stdout}${stderrTail}`);
  const runId = /^run (r-[0-9a-f]+)$/m.exec(stdout)?.[1];
  if (runId === undefined) throw new Error(`assay run printed no run id:\n${stdout}`);
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { cases: Record<string, number> };
  return { seconds, peakMiB: Number(await readFile(peakFile, 'utf8')) / 1024, runId, cases: report.cases };
}

/** The node options on cli/bin.js's shebang line (`#!/usr/bin/env -S node --max-semi-space-size=64`), which `npx assay` runs with. */
function shebangOptions(): string[] {
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0] ?? '';
  const words = first.replace(/^#!\S+\s+(-S\s+)?/, '').split(/\s+/);
  return words[0] === 'node' ? words.slice(1).filter((word) => word !== '') : [];
}
