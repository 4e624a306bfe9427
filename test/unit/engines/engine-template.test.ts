import { describe, expect, it } from 'vitest';
import {
  envNamesIn,
  placeholdersIn,
  renderJson,
  renderText,
  renderUrl,
  unknownPlaceholders,
  type TemplateValues,
} from '../../../shared/engines/engine-template.js';

const VALUES: TemplateValues = {
  query: 'keys & roles',
  request_id: 'q 1',
  variables: { b: 0.3, k: 10, exact: true, analyzer: 'english' },
  env: { TOKEN: 's3cret' },
};

describe('engine templates', () => {
  it.each<[string, unknown, unknown]>([
    ['a number variable alone keeps its type', '{{b}}', 0.3],
    ['a boolean variable alone keeps its type', '{{ exact }}', true],
    ['a text variable alone stays text', '{{analyzer}}', 'english'],
    ['a variable inside text is written as text', 'b={{b}}', 'b=0.3'],
    ['the query and request id', { q: '{{query}}', id: '{{request_id}}' }, { q: 'keys & roles', id: 'q 1' }],
    ['lists and nested objects', { must: [{ term: { k: '{{k}}' } }, '{{exact}}'] }, { must: [{ term: { k: 10 } }, true] }],
    ['an env value', { auth: 'Bearer {{env.TOKEN}}' }, { auth: 'Bearer s3cret' }],
    ['keys, numbers and null untouched', { '{{b}}': null, n: 1 }, { '{{b}}': null, n: 1 }],
  ])('renders JSON: %s', (_, template, expected) => {
    expect(renderJson(template, VALUES)).toEqual(expected);
  });

  it('URL-encodes each value in a URL, not the URL around it', () => {
    expect(renderUrl('http://127.0.0.1:9/s?q={{query}}&id={{request_id}}&b={{b}}', VALUES)).toBe(
      'http://127.0.0.1:9/s?q=keys%20%26%20roles&id=q%201&b=0.3',
    );
  });

  it('writes values into a header as they are', () => {
    expect(renderText('Bearer {{env.TOKEN}} for {{query}}', VALUES)).toBe('Bearer s3cret for keys & roles');
  });

  it('finds the placeholders of a JSON value and the env names among them', () => {
    // Act
    const names = placeholdersIn({ url: 'x?q={{query}}', headers: { a: '{{env.API_KEY}}' }, body: ['{{b}}', { c: '{{ k }}' }], n: 3 });

    // Assess
    expect(names).toEqual(['query', 'env.API_KEY', 'b', 'k']);
    expect(envNamesIn(names)).toEqual(['API_KEY']);
  });

  it('reports the placeholders that are neither built in, env nor matrix variables', () => {
    expect(unknownPlaceholders(['query', 'request_id', 'env.X', 'b', 'bb', 'env.', 'bb'], ['b'])).toEqual(['bb', 'env.']);
  });
});
