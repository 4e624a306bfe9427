/**
 * Templates in urls, headers, bodies and payloads: `{{query}}`,
 * `{{request_id}}`, `{{<matrix variable>}}` and `{{env.NAME}}`. A JSON string
 * that is exactly one placeholder takes the value's own JSON type, so
 * `"b": "{{b}}"` with b = 0.3 sends the number 0.3; anywhere else the value
 * is written into the text (URL-encoded inside a URL). Placeholders are
 * checked when the config loads and env names when the engine is created,
 * so rendering a checked template cannot fail.
 */

export type TemplateScalar = string | number | boolean;

export interface TemplateValues {
  readonly query: string;
  readonly request_id: string;
  readonly variables: Readonly<Record<string, TemplateScalar>>;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([^{}\s]+)\s*\}\}$/;
const ENV_NAME = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/;

/** Every placeholder name in a JSON value (strings inside lists and objects; keys are never templated). */
export function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(placeholdersIn);
  return [];
}

/** The placeholder names that are none of query, request_id, env.NAME or a matrix variable. */
export function unknownPlaceholders(names: readonly string[], matrixVariables: readonly string[]): string[] {
  const known = new Set(['query', 'request_id', ...matrixVariables]);
  return [...new Set(names.filter((name) => !known.has(name) && !ENV_NAME.test(name)))];
}

/** The env variable names a set of placeholders reads, e.g. `env.API_KEY` -> `API_KEY`. */
export function envNamesIn(names: readonly string[]): string[] {
  return [...new Set(names.flatMap((name) => ENV_NAME.exec(name)?.[1] ?? []))];
}

function templateValue(name: string, values: TemplateValues): TemplateScalar {
  if (name === 'query') return values.query;
  if (name === 'request_id') return values.request_id;
  const envName = ENV_NAME.exec(name)?.[1];
  if (envName !== undefined) {
    const value = values.env[envName];
    if (value === undefined) throw new Error(`Template reads env.${envName}, which was not checked before rendering`);
    return value;
  }
  const variable = values.variables[name];
  if (variable === undefined) throw new Error(`Template placeholder {{${name}}} was not checked when the config loaded`);
  return variable;
}

function interpolate(text: string, values: TemplateValues, encode: (value: string) => string): string {
  return text.replace(PLACEHOLDER, (_, name: string) => encode(String(templateValue(name, values))));
}

/** Renders a JSON template: typed single placeholders, interpolated text elsewhere, structure kept. */
export function renderJson(template: unknown, values: TemplateValues): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    return whole === null ? interpolate(template, values, (value) => value) : templateValue(whole[1] as string, values);
  }
  if (Array.isArray(template)) return template.map((item) => renderJson(item, values));
  if (typeof template === 'object' && template !== null) {
    return Object.fromEntries(Object.entries(template).map(([key, item]) => [key, renderJson(item, values)]));
  }
  return template;
}

/** Renders text such as a header value. */
export function renderText(template: string, values: TemplateValues): string {
  return interpolate(template, values, (value) => value);
}

/** Renders a URL: each value is URL-encoded, so a query with `&` or spaces stays one parameter. */
export function renderUrl(template: string, values: TemplateValues): string {
  return interpolate(template, values, encodeURIComponent);
}
