import { describe, expect, it } from 'vitest';
import { forgetSecrets, rememberSecret, removeKnownSecrets, scrubSecrets } from '../../../shared/secrets/scrub-secrets.js';

const KEY = 'gw-7Hq2Lx9Vb4Nm8Rt3Wz6Kp1Yd';

describe('scrubSecrets', () => {
  it.each([
    ['the whole key', `Incorrect API key provided: ${KEY}.`, 'Incorrect API key provided: [redacted].'],
    [
      'the key cut to its first and last characters',
      `Incorrect API key provided: ${KEY.slice(0, 10)}...${KEY.slice(-9)}`,
      'Incorrect API key provided: [redacted]...[redacted]',
    ],
    ['a run of exactly 8 characters from its middle', `token ends in ${KEY.slice(9, 17)} here`, 'token ends in [redacted] here'],
    ['the key twice, glued to other text', `a${KEY}b ${KEY}`, 'a[redacted]b [redacted]'],
    ['a run of 7 characters, too short to tell from chance', `x ${KEY.slice(3, 10)} y`, `x ${KEY.slice(3, 10)} y`],
  ])('removes a known key: %s', (_described, text, expected) => {
    expect(scrubSecrets(text, [KEY])).toBe(expected);
  });

  it.each([
    ['a bearer token', 'sent Authorization: Bearer abc.DEF-123_xyz/987=', 'sent Authorization: Bearer [redacted]'],
    ['an OpenAI key', 'key sk-Abc123Def456Ghi789 is wrong', 'key [redacted] is wrong'],
    ['a project key', 'Incorrect API key provided: sk-proj-AbCdEf0123456789', 'Incorrect API key provided: [redacted]'],
    [
      'a key as OpenAI masks it',
      'Incorrect API key provided: sk-proj-********************abcd.',
      'Incorrect API key provided: [redacted].',
    ],
    ['a key cut with an ellipsis', 'You provided sk-abc...wxyz', 'You provided [redacted]'],
    ['an AWS access key id', 'id AKIAIOSFODNN7EXAMPLE denied', 'id [redacted] denied'],
    ['an AWS secret access key', 'secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY rejected', 'secret [redacted] rejected'],
    ['api_key=value', 'GET /v1/chat?api_key=abc123&model=m', 'GET /v1/chat?api_key=[redacted]&model=m'],
    ['api-key: value', 'header api-key: zzz999 was refused', 'header api-key: [redacted] was refused'],
    ['a quoted JSON apiKey', '{"apiKey": "abc123", "model": "m"}', '{"apiKey": "[redacted]", "model": "m"}'],
    ['x-api-key', 'x-api-key=q1w2e3', 'x-api-key=[redacted]'],
  ])('removes text shaped like a credential: %s', (_described, text, expected) => {
    expect(scrubSecrets(text)).toBe(expected);
  });

  it.each([
    ['an ordinary error', 'judge server answered 429: Rate limit reached for gpt-4o-mini. Please try again in 5ms.'],
    ['a run id and a content hash', 'run r-0123456789abcdef, document content:0123456789abcdef'],
    ['a SHA-1 digest (lower-case hex, not an AWS secret)', 'commit 3f786850e387550fdab836ed7e6dc881de23001b'],
    ['words that contain "sk-"', 'a risk-free task-based ask-me flow, sk-learn'],
    ['token counts', 'max_tokens: 100, prompt_tokens=20'],
  ])('leaves text without credentials alone: %s', (_described, text) => {
    expect(scrubSecrets(text, [KEY])).toBe(text);
  });

  it('removes a remembered secret from every later call', () => {
    // Prepare
    const remembered = 'remembered-Q8w7E6r5T4';
    rememberSecret(remembered);

    // Act
    const scrubbed = scrubSecrets(`the gateway says ${remembered} is unknown`);

    // Assess
    expect(scrubbed).toBe('the gateway says [redacted] is unknown');
  });

  it('leaves documents whole again once the remembered secrets are forgotten, as the next job of a process starts', () => {
    // Prepare: a key whose first 8 characters a later job's document id shares
    rememberSecret('bedrock-batch-secret-key');
    const redacted = removeKnownSecrets('bedrock-knowledge-bases');

    // Act
    forgetSecrets();

    // Assess
    expect(redacted).toBe('[redacted]knowledge-bases');
    expect(removeKnownSecrets('bedrock-knowledge-bases')).toBe('bedrock-knowledge-bases');
    expect(scrubSecrets('the gateway says bedrock-batch-secret-key is unknown')).toBe(
      'the gateway says bedrock-batch-secret-key is unknown',
    );
  });

  it('removes a short secret only where it appears whole', () => {
    expect(scrubSecrets('key abcde or abcd', ['abcde'])).toBe('key [redacted] or abcd');
  });
});

describe('scrubSecrets, a key removed two ways', () => {
  it('reads as one removal where a remembered key and a credential shape cover one stretch of text', () => {
    // Prepare: a key remembered, met right before a second key that only its shape gives away
    const remembered = 'gw-PlUmBeRsQuAlItYkEy';
    rememberSecret(remembered);

    // Act
    const scrubbed = scrubSecrets(`refused: token ${remembered}sk-OtHeRkEyOfThEgAtEwAy, try again`);

    // Assess
    expect(scrubbed).toBe('refused: token [redacted], try again');
  });
});
