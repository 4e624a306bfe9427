import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteStringTable } from '../../../shared/trec/byte-string-table.js';
import { compareBytes } from '../../../shared/trec/trec-order.js';

describe('ByteStringTable', () => {
  it('gives dense ids in insertion order and finds them again', () => {
    // Prepare
    const table = new ByteStringTable();

    // Act
    const ids = ['d1', 'd10', 'caf\u00e9', '\u{1F600}'].map((text) => table.addText(text));

    // Assess
    expect(ids).toEqual([0, 1, 2, 3]);
    expect(table.size).toBe(4);
    expect(table.findText('d10')).toBe(1);
    expect(table.findText('d100')).toBe(-1);
    expect(table.texts()).toEqual(['d1', 'd10', 'caf\u00e9', '\u{1F600}']);
  });

  it('reports a repeated string as -(existing id) - 1 and does not add it', () => {
    const table = new ByteStringTable();
    table.addText('a');
    table.addText('b');
    expect(table.addText('b')).toBe(-2);
    expect(table.size).toBe(2);
  });

  it('adds from a slice of a larger buffer, as the readers do', () => {
    const table = new ByteStringTable();
    const line = Buffer.from('301 Q0 FBIS3-10082 1 2.5 run');
    expect(table.add(line, 7, 18)).toBe(0);
    expect(table.text(0)).toBe('FBIS3-10082');
    expect(table.find(Buffer.from('xFBIS3-10082'), 1, 12)).toBe(0);
  });

  it('finds the strings of another table by id (run document -> judgment)', () => {
    const judged = new ByteStringTable();
    for (const text of ['a', 'b', 'c']) judged.addText(text);
    const retrieved = new ByteStringTable();
    for (const text of ['c', 'x', 'a']) retrieved.addText(text);
    expect([0, 1, 2].map((id) => judged.findFrom(retrieved, id))).toEqual([2, -1, 0]);
  });

  it('behaves as a Set of strings through many growths, and compares as strcmp', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 3000 }), (texts) => {
        // Prepare: start tiny so that bytes, entries and slots all grow several times
        const table = new ByteStringTable(1);
        const reference = new Map<string, number>();

        // Act
        for (const text of texts) {
          const id = table.addText(text);
          if (reference.has(text)) expect(id).toBe(-(reference.get(text) as number) - 1);
          else reference.set(text, id);
        }

        // Assess
        expect(table.size).toBe(reference.size);
        for (const [text, id] of reference) {
          expect(table.findText(text)).toBe(id);
          expect(table.text(id)).toBe(text);
        }
        const ordered = [...reference.keys()];
        for (let index = 1; index < ordered.length; index++) {
          const a = ordered[index - 1] as string;
          const b = ordered[index] as string;
          expect(Math.sign(table.compare(reference.get(a) as number, reference.get(b) as number))).toBe(Math.sign(compareBytes(a, b)));
        }
      }),
      { seed: 7, numRuns: 40 },
    );
  });
});
