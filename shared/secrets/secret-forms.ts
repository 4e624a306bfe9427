/**
 * The forms in which an engine's secret value can come back in an answer or
 * an error: as it was sent in a header or a body, URL-encoded as a URL
 * template sends it, and escaped inside a JSON string. Each form is removed
 * by scrubSecrets wherever any 8 characters of it appear in a row, which
 * also covers a secret cut short (`abcdefgh...uvwxyz12`).
 */
export function secretForms(values: readonly string[]): string[] {
  const forms = values.flatMap((value) => [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
  return [...new Set(forms)];
}
