import type { Result } from '../schema/result.js';

export type ConfigText = Result<unknown>;

/**
 * The value of a config file's text, YAML or JSON, or a one-line error that
 * names the file. The YAML parser is loaded for the first YAML text: a run
 * without one (a JSON config, or none, or a worker reading a run's stored
 * config) never compiles it.
 */
export async function parseConfigText(text: string, file: string, format: 'yaml' | 'json'): Promise<ConfigText> {
  if (format === 'yaml') return (await import('./yaml-config-text.js')).parseYamlConfigText(text, file);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: `${file}: not valid JSON: ${message.split('\n', 1)[0] ?? ''} (fix: correct the syntax, or write the file as YAML)`,
    };
  }
}
