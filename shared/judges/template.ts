import type { Result } from '../schema/result.js';
/**
 * Prompt templates with `{placeholder}` slots. A template is checked when a
 * judge is loaded, not when it first runs: every placeholder must be a known
 * input and every input the judge declares must appear, so a typo in a custom
 * judge fails at start-up with the name of the placeholder.
 *
 * `{{` and `}}` stand for literal braces, so JSON examples can sit in a prompt.
 */

/** The inputs a template can use. */
export const TEMPLATE_INPUTS = ['request', 'response', 'context', 'chunk', 'expected_response', 'expected_facts'] as const;
export type TemplateInput = (typeof TEMPLATE_INPUTS)[number];

const PLACEHOLDER = /\{\{|\}\}|\{([^{}]*)\}/g;

/** The placeholders a template uses, in order of first use. */
export function placeholdersOf(template: string): string[] {
  const found: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (name !== undefined && !found.includes(name)) found.push(name);
  }
  return found;
}

/** Checks that a template uses exactly known inputs, and every declared one. */
export function checkTemplate(template: string, declaredInputs: readonly TemplateInput[], where: string): Result<undefined> {
  const used = placeholdersOf(template);
  const unknown = used.filter((name) => !(TEMPLATE_INPUTS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `${where}: unknown placeholder ${unknown.map((name) => `{${name}}`).join(', ')}; known placeholders are ${TEMPLATE_INPUTS.map((name) => `{${name}}`).join(', ')} (write {{ and }} for literal braces)`,
    };
  }
  const missing = declaredInputs.filter((input) => !used.includes(input));
  if (missing.length > 0) {
    return {
      ok: false,
      error: `${where}: the template never uses ${missing.map((name) => `{${name}}`).join(', ')}, which the judge declares as input; add it to the template or remove it from the inputs`,
    };
  }
  return { ok: true, value: undefined };
}

/** Fills a checked template. Values are inserted as they are: braces in them are not read as placeholders. */
export function renderTemplate(template: string, values: Partial<Record<TemplateInput, string>>): string {
  return template.replace(PLACEHOLDER, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = values[name as TemplateInput];
    if (value === undefined) throw new Error(`Template input {${name}} has no value: the judge's inputs were not checked`);
    return value;
  });
}
