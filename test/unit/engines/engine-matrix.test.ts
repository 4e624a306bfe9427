import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { engineConfigSchema } from '../../../shared/engines/engine-config.js';
import { expandMatrix } from '../../../shared/engines/engine-matrix.js';

/** An http engine whose body uses every matrix variable, written in YAML so the key order is the file's. */
function variantsOf(matrixYaml: string) {
  const matrix = parseDocument(matrixYaml).toJS() as Record<string, unknown[]>;
  const body = Object.fromEntries(Object.keys(matrix).map((name) => [name, `{{${name}}}`]));
  const config = engineConfigSchema.parse({ name: 'bm25', matrix, http: { url: 'http://127.0.0.1:8000/s', body, results: 'hits' } });
  return expandMatrix(config);
}

describe('matrix expansion', () => {
  it('gives one engine per combination, variables in the order written, the first varying slowest', () => {
    // Act
    const variants = variantsOf('{k: [10, 20], b: [0.3, 0.75]}');

    // Assess
    expect(variants.map((variant) => variant.name)).toEqual(['bm25@k=10,b=0.3', 'bm25@k=10,b=0.75', 'bm25@k=20,b=0.3', 'bm25@k=20,b=0.75']);
    expect(variants.map((variant) => variant.variables)).toEqual([
      { k: 10, b: 0.3 },
      { k: 10, b: 0.75 },
      { k: 20, b: 0.3 },
      { k: 20, b: 0.75 },
    ]);
  });

  it.each([
    ['one variable', '{b: [0.3, 0.75]}', ['bm25@b=0.3', 'bm25@b=0.75']],
    [
      'texts and booleans',
      '{analyzer: [english, standard], exact: [true]}',
      ['bm25@analyzer=english,exact=true', 'bm25@analyzer=standard,exact=true'],
    ],
    ['one value', '{b: [1]}', ['bm25@b=1']],
  ])('names the variants of %s', (_, matrix, names) => {
    expect(variantsOf(matrix).map((variant) => variant.name)).toEqual(names);
  });

  it('leaves an engine without a matrix as one engine under its own name', () => {
    // Prepare
    const config = engineConfigSchema.parse({ name: 'dense', http: { url: 'http://127.0.0.1:8000/s', results: 'hits' } });

    // Act
    const variants = expandMatrix(config);

    // Assess
    expect(variants).toEqual([{ name: 'dense', config, variables: {} }]);
  });
});
