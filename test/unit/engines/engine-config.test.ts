import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config/index.js';

/** The config file's engines: list, checked through the same loader as the rest of the file. */
function check(yaml: string) {
  return parseRunConfig(parseDocument(yaml).toJS(), 'sweep.yaml');
}

function errorOf(yaml: string): string {
  const checked = check(yaml);
  return checked.ok ? '(accepted)' : checked.error;
}

const HTTP = 'http: {url: "http://127.0.0.1:8700/search", results: "hits[].{doc_uri: id}"}';

describe('engines in the config file', () => {
  it('accepts every connector and fills in the defaults', () => {
    // Prepare
    const yaml = `
engines:
  - name: bm25
    matrix: {b: [0.3, 0.75]}
    http: {url: "http://127.0.0.1:8700/search", body: {q: "{{query}}", b: "{{b}}"}, results: "hits[].{doc_uri: id}"}
  - name: os
    opensearch: {url: "https://search.example.com", index: docs, query: {query: {match: {text: "{{query}}"}}}, aws: {region: us-east-1, service: aoss}}
  - name: kb
    bedrock_kb: {knowledge_base_id: KB12345678, region: us-east-1}
  - name: fn
    lambda: {function_name: search, region: eu-west-1, results: "results"}
  - name: pg
    matrix: {k: [10]}
    postgres: {connection_env: SEARCH_DATABASE_URL, sql: "SELECT id AS doc_uri FROM d WHERE body @@ plainto_tsquery($1) LIMIT $2", params: [k]}
  - name: frozen
    trec: {path: examples/trec/run-bm25.txt}
`;

    // Act
    const checked = check(yaml);

    // Assess
    expect(checked.ok).toBe(true);
    const engines = checked.ok ? (checked.value.engines ?? []) : [];
    expect(engines.map((engine) => engine.name)).toEqual(['bm25', 'os', 'kb', 'fn', 'pg', 'frozen']);
    expect(engines[0]).toMatchObject({ timeout_ms: 10_000, retries: 2, http: { method: 'POST', headers: {} } });
    expect(engines[1]?.opensearch).toMatchObject({ id_field: '_id', size: 10 });
    expect(engines[2]?.bedrock_kb?.number_of_results).toBe(10);
    expect(engines[3]?.lambda?.payload).toEqual({ query: '{{query}}', request_id: '{{request_id}}' });
    expect(checked.ok && checked.value.run.judge_depth).toBe(10);
  });

  it.each<[string, string, RegExp]>([
    [
      'a misspelt engine key',
      `engines:\n  - name: a\n    retires: 3\n    ${HTTP}\n`,
      /field "engines\[0\]\.retires" \(engine "a"\): unknown key \(fix: remove it or correct its spelling; the keys here are name, matrix, timeout_ms, retries, max_answer_bytes, http, opensearch/,
    ],
    [
      'a misspelt key inside a connector',
      `engines:\n  - name: a\n    http: {url: "http://x.test/s", results: "hits", header: {a: b}}\n`,
      /field "engines\[0\]\.http\.header" \(engine "a"\): unknown key \(fix: remove it or correct its spelling; the keys here are url, method, headers, body, timeout_ms, results, response\)/,
    ],
    [
      'a misspelt key inside opensearch.aws',
      'engines:\n  - name: a\n    opensearch: {url: "https://x.test", index: d, query: {}, aws: {region: us-east-1, servce: es}}\n',
      /field "engines\[0\]\.opensearch\.aws\.servce" \(engine "a"\): unknown key .*the keys here are region, service/,
    ],
    [
      'a misspelt matrix variable',
      `engines:\n  - name: a\n    matrix: {bb: [0.3]}\n    http: {url: "http://x.test/s", body: {b: "{{b}}"}, results: "hits"}\n`,
      /field "engines\[0\]\.http\.body" \(engine "a"\): unknown placeholder \{\{b\}\} \(fix: use one of query, request_id, bb, env\.NAME, or add "b" to the matrix\)/,
    ],
    [
      'a matrix variable no template uses',
      `engines:\n  - name: a\n    matrix: {bb: [0.3]}\n    ${HTTP}\n`,
      /field "engines\[0\]\.matrix\.bb" \(engine "a"\): matrix variable "bb" is used by no template of the http connector \(fix: write \{\{bb\}\} where the value goes, or correct/,
    ],
    [
      'a matrix variable with an empty list',
      `engines:\n  - name: a\n    matrix: {b: []}\n    ${HTTP}\n`,
      /field "engines\[0\]\.matrix\.b" \(engine "a"\): must not be empty \(fix: write an object of variables/,
    ],
    [
      'a credential in the file',
      `engines:\n  - name: a\n    api_key: abc\n    ${HTTP}\n`,
      /field "engines\[0\]\.api_key" \(engine "a"\): unknown key \(fix: remove it: engine credentials come from the environment/,
    ],
    [
      'no connector',
      'engines:\n  - name: a\n',
      /field "engines\[0\]" \(engine "a"\): names no connector \(fix: give exactly one of the connector keys http, opensearch, bedrock_kb, lambda, postgres, trec\)/,
    ],
    [
      'two connectors',
      `engines:\n  - name: a\n    ${HTTP}\n    trec: {path: run.txt}\n`,
      /field "engines\[0\]" \(engine "a"\): names 2 connectors \(http, trec\)/,
    ],
    [
      'a name with a space',
      `engines:\n  - name: my engine\n    ${HTTP}\n`,
      /field "engines\[0\]\.name" \(engine "my engine"\): expected a name of letters, digits, "\.", "_" and "-"/,
    ],
    [
      'two engines with one name',
      `engines:\n  - name: a\n    ${HTTP}\n  - name: a\n    trec: {path: run.txt}\n`,
      /field "engines\[1\]\.name" \(engine "a"\): engine name "a" is used twice \(fix: give each engine its own name\)/,
    ],
    [
      'a broken JMESPath expression',
      'engines:\n  - name: a\n    http: {url: "http://x.test/s", results: "hits[].{doc_uri: id"}\n',
      /field "engines\[0\]\.http\.results" \(engine "a"\): not a valid JMESPath expression/,
    ],
    [
      'an unknown method',
      'engines:\n  - name: a\n    http: {url: "http://x.test/s", method: PUT, results: "hits"}\n',
      /field "engines\[0\]\.http\.method" \(engine "a"\): expected one of POST, GET, got "PUT" \(fix: use POST or GET\)/,
    ],
    [
      'a header that is not text',
      'engines:\n  - name: a\n    http: {url: "http://x.test/s", headers: {x-limit: 5}, results: "hits"}\n',
      /field "engines\[0\]\.http\.headers\.x-limit" \(engine "a"\): expected a text, got number 5 \(fix: write an object of header names and texts/,
    ],
    [
      'an unknown postgres parameter',
      'engines:\n  - name: a\n    postgres: {connection_env: DB, sql: "SELECT 1 WHERE $1 = $2", params: [k]}\n',
      /field "engines\[0\]\.postgres\.params\[0\]" \(engine "a"\): unknown variable "k"/,
    ],
    [
      'a SQL placeholder without a parameter',
      'engines:\n  - name: a\n    postgres: {connection_env: DB, sql: "SELECT 1 WHERE $1 = $3"}\n',
      /field "engines\[0\]\.postgres\.sql" \(engine "a"\): uses \$3 but only \$1 \(the query\) to \$1 are given/,
    ],
    [
      'a bad region',
      'engines:\n  - name: a\n    bedrock_kb: {knowledge_base_id: KB12345678, region: virginia}\n',
      /field "engines\[0\]\.bedrock_kb\.region" \(engine "a"\): .*expected an AWS region such as us-east-1/,
    ],
    [
      'a literal password in the URL',
      'engines:\n  - name: a\n    http: {url: "https://reader:hunter2-secret@x.test/s", results: "hits"}\n',
      /field "engines\[0\]\.http\.url" \(engine "a"\): holds a literal password; the URL is printed in the engine's messages/,
    ],
    [
      "a literal key in the URL's query",
      'engines:\n  - name: a\n    http: {url: "https://x.test/s?q={{query}}&api_key=abc123", results: "hits"}\n',
      /field "engines\[0\]\.http\.url" \(engine "a"\): holds a literal credential in its query \(api_key\)/,
    ],
    [
      'a literal credential in a header',
      'engines:\n  - name: a\n    http: {url: "http://x.test/s", headers: {Authorization: "Bearer abc123"}, results: "hits"}\n',
      /field "engines\[0\]\.http\.headers\.Authorization" \(engine "a"\): holds a literal credential; the config is copied into every run's manifest \(fix: read it from the environment/,
    ],
    [
      'a judge depth of 0',
      'run: {judge_depth: 0}\n',
      /field "run\.judge_depth": expected a number >= 1, got number 0 \(fix: give how many top hits of each engine to judge/,
    ],
  ])('rejects %s, naming the field and the fix', (_, yaml, expected) => {
    expect(errorOf(yaml)).toMatch(expected);
  });
});
