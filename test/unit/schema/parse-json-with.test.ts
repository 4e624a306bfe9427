import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJsonWith } from '../../../shared/schema/parse-json-with.js';

const documentSchema = z.object({
  doc_uri: z.string(),
  contexts: z.array(z.object({ doc_uri: z.string(), rank: z.number().int().min(1) })),
});

describe('parseJsonWith', () => {
  it('gives the value of JSON text that matches the schema', () => {
    expect(parseJsonWith(documentSchema, '{"doc_uri": "kb/a", "contexts": []}')).toEqual({
      ok: true,
      value: { doc_uri: 'kb/a', contexts: [] },
    });
  });

  it('reads UTF-8 bytes as their text', () => {
    expect(parseJsonWith(documentSchema, new TextEncoder().encode('{"doc_uri": "kb/ä", "contexts": []}'))).toEqual({
      ok: true,
      value: { doc_uri: 'kb/ä', contexts: [] },
    });
  });

  it.each<[string, string, string]>([
    ['text that is not JSON', '{"doc_uri": ', 'not valid JSON ('],
    ['a missing field', '{"contexts": []}', 'field "doc_uri": is missing'],
    [
      'a wrong type deep in a list, named as a user reads the path',
      '{"doc_uri": "a", "contexts": [{"doc_uri": "b", "rank": 1}, {"doc_uri": 3, "rank": 2}]}',
      'field "contexts[1].doc_uri": expected a string, got a number (3)',
    ],
    [
      'a number out of range',
      '{"doc_uri": "a", "contexts": [{"doc_uri": "b", "rank": 0}]}',
      'field "contexts[0].rank": expected a number >= 1, got a number (0)',
    ],
    ['a value of the wrong type at the top', '[1, 2]', 'expected an object, got an array'],
    ['several problems: the first, and how many more', '{"contexts": [{"rank": 1}]}', 'field "doc_uri": is missing (and 1 more problem)'],
  ])('says what is wrong with %s', (_described, text, error) => {
    const parsed = parseJsonWith(documentSchema, text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error.startsWith(error)).toBe(true);
  });

  it('names what the text should have been before a problem of its shape, not before invalid JSON', () => {
    expect(parseJsonWith(documentSchema, '{}', 'a document')).toEqual({
      ok: false,
      error: 'not a document: field "doc_uri": is missing (and 1 more problem)',
    });
    expect(parseJsonWith(documentSchema, '{', 'a document')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not valid JSON \(/),
    });
  });

  describe('on a union', () => {
    const placeSchema = z.union(
      [
        z.object({ id: z.string(), inline: z.object({ text: z.string() }), key: z.undefined().optional() }),
        z.object({ id: z.string(), key: z.string(), inline: z.undefined().optional() }),
      ],
      { error: 'give either inline or key' },
    );

    it.each<[string, unknown, string]>([
      ['a problem every option has', { inline: { text: 'a' } }, 'field "id": is missing'],
      [
        'the problems of the option the input is nearest to',
        { id: 'a', inline: { text: 1 } },
        'field "inline.text": expected a string, got a number (1)',
      ],
      ['a wrong type of the only field present', { id: 'a', key: 7 }, 'field "key": expected a string, got a number (7)'],
      ["neither option: the union's own message", { id: 'a' }, 'give either inline or key'],
      ["both options: the union's own message", { id: 'a', key: 'k', inline: { text: 'a' } }, 'give either inline or key'],
    ])('says %s', (_described, value, error) => {
      expect(parseJsonWith(placeSchema, JSON.stringify(value))).toEqual({ ok: false, error });
    });
  });
});
