#!/usr/bin/env -S node --max-semi-space-size=64
// Entry point for `npx assay`: runs the CLI as built to JavaScript (`npm ci` builds it through
// the prepare script), so a command starts without compiling TypeScript. Without a build it runs
// the source through tsx, seconds slower, and says so.
// The larger young generation (semi-space) halves garbage-collection time when
// ir-metrics reads run files of millions of lines.
import { existsSync } from 'node:fs';

// A reader that stops early (`assay ... | head`) closes the pipe: the output ends there, which is no error.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});

const built = new URL('../dist/cli/main.js', import.meta.url);
let main;
if (existsSync(built)) {
  ({ main } = await import(built.href));
} else {
  process.stderr.write('assay: no build of the CLI found, running it from source (slower); run `npm run build` to build it\n');
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./main.ts'));
}
process.exitCode = await main(process.argv);
