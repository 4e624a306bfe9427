import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkedJson } from '../../../cli/checked-json.js';

const schema = z.object({ run: z.string(), cases: z.number().int(), note: z.string().optional() });

describe('checkedJson', () => {
  it('prints a value its schema holds, indented two spaces', () => {
    // Act
    const text = checkedJson(schema, { run: 'r-1', cases: 3 });

    // Assess
    expect(text).toBe('{\n  "run": "r-1",\n  "cases": 3\n}');
  });

  it.each([
    ['a value the schema refuses', { run: 'r-1', cases: 1.5 }],
    ['a field the schema lacks', { run: 'r-1', cases: 3, extra: true }],
    ['fields out of the schema order', { cases: 3, run: 'r-1' }],
  ])('throws on %s: the printed JSON would not be the one its schema describes', (_name, value) => {
    expect(() => checkedJson(schema, value)).toThrow();
  });
});
