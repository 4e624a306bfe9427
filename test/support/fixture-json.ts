import { readFileSync } from 'node:fs';

/** A JSON fixture from test/fixtures/, parsed. */
export function fixtureJson(path: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8'));
}
