// `node --import <this file>`: records the modules the process resolves into the file named by
// RECORD_RESOLUTIONS_TO (see hooks.mjs).
import { register } from 'node:module';

const file = process.env.RECORD_RESOLUTIONS_TO;
if (file === undefined) throw new Error('Set RECORD_RESOLUTIONS_TO to the file that receives the resolutions');
register('./hooks.mjs', import.meta.url, { data: { file } });
