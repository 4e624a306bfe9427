import { describe, expect, it } from 'vitest';
import { extractJson } from '../../../shared/judge-answers/answer-parsing.js';

const VERDICT = { rationale: 'fine', rating: 'yes' };

describe('extractJson', () => {
  it.each([
    ['the JSON itself', JSON.stringify(VERDICT)],
    ['the JSON encoded again as a JSON string', JSON.stringify(JSON.stringify(VERDICT))],
    ['a JSON string holding a fenced block', JSON.stringify(`\`\`\`json\n${JSON.stringify(VERDICT)}\n\`\`\``)],
    ['the JSON with every quote escaped', JSON.stringify(VERDICT).replaceAll('"', '\\"')],
    ['escaped JSON in prose', `Verdict: ${JSON.stringify(VERDICT).replaceAll('"', '\\"')} (done)`],
  ])('reads %s as the verdict', (_described, text) => {
    expect(extractJson(text)).toEqual({ ok: true, value: VERDICT });
  });

  it('keeps escaped quotes inside a string value of JSON that parses as written', () => {
    // Act
    const read = extractJson('{"rationale": "it says \\"yes\\"", "rating": "yes"}');

    // Assess
    expect(read).toEqual({ ok: true, value: { rationale: 'it says "yes"', rating: 'yes' } });
  });

  it.each([
    ['a word', '"yes"', 'yes'],
    ['a number written as text', '"3"', '3'],
    ['prose', '"I think it is relevant"', 'I think it is relevant'],
  ])('keeps a JSON string holding %s as that string, for the schema to judge', (_described, text, value) => {
    expect(extractJson(text)).toEqual({ ok: true, value });
  });

  it('finds no JSON in prose with escaped quotes and no object', () => {
    // Act
    const read = extractJson('The passage says \\"relevant\\" twice.');

    // Assess
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error).toMatch(/^the answer holds no JSON object: /);
  });
});
