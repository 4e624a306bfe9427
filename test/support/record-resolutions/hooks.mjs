// Module hooks (node:module register) that append every module the process resolves to a file:
// "<specifier>\t<resolved url>" a line. Plain JavaScript, as they run in the built CLI's process.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${specifier}\t${resolved.url}\n`);
  return resolved;
}
