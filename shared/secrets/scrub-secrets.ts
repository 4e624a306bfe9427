/**
 * Removes credentials from text that came from outside (a server's error
 * body, an SDK's message) before it becomes a value that is stored, reported
 * or printed. Some gateways repeat the key they were sent in their 401 body,
 * whole or cut down to its first and last characters, so a known secret is
 * removed wherever any 8 characters of it appear in a row, and text shaped
 * like a credential (a bearer token, an `sk-` key, an AWS secret, an
 * `api_key=` value) is removed even when the key itself is not known here.
 */

export const REDACTED = '[redacted]';

/** A run of this many characters of a known secret counts as the secret. */
const SECRET_RUN = 8;
/** Shorter secrets are removed only where they appear whole; below this length they are not worth hiding. */
const SHORTEST_SECRET = 4;

const knownSecrets = new Set<string>();

/**
 * Makes every later `scrubSecrets` call of this process remove `secret`.
 * Whoever reads a credential (the judge client, the CLI) calls this, so a
 * message that reaches a failure record or the terminal through another path
 * is still cleaned.
 */
export function rememberSecret(secret: string | undefined): void {
  const trimmed = secret?.trim();
  if (trimmed !== undefined && trimmed.length >= SHORTEST_SECRET) knownSecrets.add(trimmed);
}

/**
 * Forgets every secret remembered so far: for a process that runs one
 * independent job after another (the test workers that run file after file),
 * so one job's keys do not cut pieces out of the next one's data.
 */
export function forgetSecrets(): void {
  knownSecrets.clear();
}

/** Credential shapes, each with what replaces it (the label before the value is kept, so the text still reads). */
const CREDENTIAL_SHAPES: readonly { pattern: RegExp; replacement: string }[] = [
  { pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, replacement: `$1${REDACTED}` },
  // OpenAI-style keys (sk-..., sk-proj-..., sk-ant-...), also as gateways print them masked or cut: sk-abc...xyz, sk-proj-****abcd.
  { pattern: /\bsk-(?:[A-Za-z0-9_*-]|\.{3}|…){6,}/g, replacement: REDACTED },
  { pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, replacement: REDACTED },
  // An AWS secret access key: 40 characters of base64 mixing upper case, lower case and digits (a hex digest does not).
  {
    pattern: /(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]*[A-Z])(?=[A-Za-z0-9/+]*[a-z])(?=[A-Za-z0-9/+]*[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    replacement: REDACTED,
  },
  {
    pattern:
      /\b((?:x-)?(?:api[_-]?key|secret[_-]?(?:access[_-]?)?key|access[_-]?token|auth[_-]?token|client[_-]?secret|password)["']?\s*[=:]\s*["']?)[^\s"',;&}]+/gi,
    replacement: `$1${REDACTED}`,
  },
];

/** `text` without the secrets remembered so far, the `secrets` given, and anything shaped like a credential. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  const all = [...knownSecrets, ...secrets.map((secret) => secret.trim()).filter((secret) => secret.length >= SHORTEST_SECRET)];
  let scrubbed = removeSecretRuns(text, all);
  for (const { pattern, replacement } of CREDENTIAL_SHAPES) scrubbed = scrubbed.replace(pattern, replacement);
  // A key removed as a known secret and as a credential's shape, in pieces, reads as one removal.
  return scrubbed.replace(/(?:\[redacted\])+/g, REDACTED);
}

/**
 * `text` without the secrets remembered so far and the `secrets` given, and
 * nothing else: for content from outside that is data, not a message (an
 * engine's documents and answer), where words shaped like a credential
 * (`password: ...` in a how-to page) are what the document says.
 */
export function removeKnownSecrets(text: string, secrets: readonly string[] = []): string {
  const all = [...knownSecrets, ...secrets.map((secret) => secret.trim()).filter((secret) => secret.length >= SHORTEST_SECRET)];
  return all.length === 0 ? text : removeSecretRuns(text, all);
}

/** Replaces every stretch of `text` made of runs of 8 or more characters of a secret (or a short secret whole). */
function removeSecretRuns(text: string, secrets: readonly string[]): string {
  const pieces = new Set<string>();
  const wholeShortSecrets: string[] = [];
  for (const secret of secrets) {
    if (secret.length < SECRET_RUN) wholeShortSecrets.push(secret);
    for (let start = 0; start + SECRET_RUN <= secret.length; start++) pieces.add(secret.slice(start, start + SECRET_RUN));
  }
  // covered[i] is true when character i of text belongs to a secret.
  const covered = new Array<boolean>(text.length).fill(false);
  const cover = (start: number, length: number): void => {
    for (let index = start; index < start + length; index++) covered[index] = true;
  };
  if (pieces.size > 0) {
    for (let start = 0; start + SECRET_RUN <= text.length; start++) {
      if (pieces.has(text.slice(start, start + SECRET_RUN))) cover(start, SECRET_RUN);
    }
  }
  for (const secret of wholeShortSecrets) {
    for (let start = text.indexOf(secret); start !== -1; start = text.indexOf(secret, start + 1)) cover(start, secret.length);
  }
  let result = '';
  for (let index = 0; index < text.length; index++) {
    if (!covered[index]) result += text[index];
    else if (index === 0 || !covered[index - 1]) result += REDACTED;
  }
  return result;
}

/**
 * `value` (parsed JSON) with every string in it, keys excepted, passed
 * through `clean` (scrubSecrets for a message, removeKnownSecrets for data):
 * for a provider's stored answer, which must keep its shape.
 */
export function withCleanStrings(value: unknown, clean: (text: string) => string): unknown {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map((item) => withCleanStrings(item, clean));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withCleanStrings(item, clean)]));
  return value;
}
