#!/usr/bin/env -S node --max-semi-space-size=64
// Entry point for `npx assay`: registers the TypeScript loader, then runs the CLI from source.
// The larger young generation (semi-space) halves garbage-collection time when
// ir-metrics reads run files of millions of lines.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv);
