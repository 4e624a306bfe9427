import { parseDocument } from 'yaml';
import type { Result } from '../schema/result.js';

/**
 * How many copies of one anchor a YAML config may expand to (yaml's own
 * default, made explicit): ample for a config that reuses a block, while an
 * alias bomb (aliases of aliases, nine deep) would expand to millions.
 */
const MAX_ALIAS_COUNT = 100;

/**
 * The value of a YAML config's text, or a one-line error that names the file.
 * An empty YAML file is an empty mapping: every setting keeps its default.
 *
 * yaml is imported here statically and this module is the one loaded lazily
 * (config-text.ts): a CommonJS package imported dynamically by name keeps
 * only its `default` export in the CLI's split bundle, while a static import
 * is given every named export.
 */
export function parseYamlConfigText(text: string, file: string): Result<unknown> {
  const document = parseDocument(text, { prettyErrors: true });
  const [syntaxError] = document.errors;
  if (syntaxError !== undefined) {
    // The first line names the problem and its line and column; the rest is a drawing of the spot, which does not fit a one-line error.
    return { ok: false, error: `${file}: not valid YAML: ${firstLine(syntaxError).replace(/:$/, '')} (fix: correct the syntax)` };
  }
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {} };
  } catch (error) {
    // yaml counts the expansions while it builds the value, and stops before they exhaust memory.
    if (error instanceof ReferenceError && /alias count/i.test(error.message)) {
      return {
        ok: false,
        error: `${file}: not usable YAML: its aliases (*name) expand to more than ${MAX_ALIAS_COUNT} copies of one anchor, as an alias bomb does (fix: write the repeated values out)`,
      };
    }
    return { ok: false, error: `${file}: not valid YAML: ${firstLine(error)} (fix: correct the syntax)` };
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0] ?? '';
}
