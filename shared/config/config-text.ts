export type ConfigText = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * How many copies of one anchor a YAML config may expand to (yaml's own
 * default, made explicit): ample for a config that reuses a block, while an
 * alias bomb (aliases of aliases, nine deep) would expand to millions.
 */
const MAX_ALIAS_COUNT = 100;

/**
 * The value of a config file's text, YAML or JSON, or a one-line error that
 * names the file. An empty YAML file is an empty mapping: every setting keeps
 * its default. The YAML parser is loaded for the first YAML text: a run
 * without one (a JSON config, or none, or a worker reading a run's stored
 * config) never compiles it.
 */
export async function parseConfigText(text: string, file: string, format: 'yaml' | 'json'): Promise<ConfigText> {
  if (format === 'json') {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (error) {
      return { ok: false, error: `${file}: not valid JSON: ${firstLine(error)} (fix: correct the syntax, or write the file as YAML)` };
    }
  }
  const { parseDocument } = await import('yaml');
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
