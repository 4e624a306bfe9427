import { CONNECTOR_KINDS, CONNECTOR_SCHEMAS } from './connector-configs.js';
import { ENGINE_KEYS } from './engine-config.js';

/**
 * What the config loader says about the `engines:` list: the keys each object
 * accepts (to name them when an unknown key turns up) and how to fix each
 * field, by its path with list indices written `[]`.
 */

const PREFIX = 'engines[]';

export const ENGINE_CONFIG_KEYS: Readonly<Record<string, readonly string[]>> = {
  [PREFIX]: ENGINE_KEYS,
  ...Object.fromEntries(CONNECTOR_KINDS.map((kind) => [`${PREFIX}.${kind}`, Object.keys(CONNECTOR_SCHEMAS[kind].shape)])),
  [`${PREFIX}.opensearch.aws`]: ['region', 'service'],
};

const TEMPLATE_HINT = 'placeholders {{query}}, {{request_id}}, {{<matrix variable>}}, {{env.NAME}}';
const RESULTS_FIX =
  'give a JMESPath expression from the answer to a list of {doc_uri, content?, score?}, e.g. hits[].{doc_uri: id, content: text, score: score}';
const REGION_FIX = 'give the AWS region, e.g. us-east-1';

const FIELD_FIXES: Readonly<Record<string, string>> = {
  '': `write an object with a name and one connector key (${CONNECTOR_KINDS.join(', ')})`,
  name: 'use letters, digits, ".", "_" and "-", e.g. bm25 or dense-v2',
  matrix: 'write an object of variables, each a non-empty list of texts, numbers or true/false, e.g. {b: [0.3, 0.75], k1: [1.2]}',
  timeout_ms: 'give the milliseconds one attempt may take, e.g. 10000',
  retries: 'give the further attempts after a transient failure, 0 to 10',
  max_answer_bytes: 'give the largest answer to read, in bytes, e.g. 16777216 (16 MiB, the default)',
  http: 'write an object with url and results, and optionally method, headers, body, timeout_ms, response',
  'http.url': `give an http or https URL; ${TEMPLATE_HINT} are URL-encoded`,
  'http.method': 'use POST or GET',
  'http.headers': `write an object of header names and texts; ${TEMPLATE_HINT}, e.g. {Authorization: "Bearer {{env.SEARCH_TOKEN}}"}`,
  'http.body': `write any JSON; ${TEMPLATE_HINT}; a text that is one placeholder keeps the value's type`,
  'http.timeout_ms': 'give the milliseconds one attempt may take, e.g. 5000',
  'http.results': RESULTS_FIX,
  'http.response': 'give a JMESPath expression from the answer to the generated text, e.g. answer',
  opensearch: 'write an object with url, index and query, and optionally id_field, content_field, size, headers, aws',
  'opensearch.url': 'give the cluster endpoint, e.g. https://search-docs.us-east-1.es.amazonaws.com',
  'opensearch.index': 'give the index name (placeholders allowed)',
  'opensearch.query': `write the _search body as an object, e.g. {query: {match: {text: "{{query}}"}}}`,
  'opensearch.id_field': 'give the field holding the document id, or _id (the default)',
  'opensearch.content_field': 'give the _source field holding the text, e.g. text',
  'opensearch.size': 'give how many hits to ask for, e.g. 10',
  'opensearch.aws': 'write {region, service} with service es (OpenSearch Service) or aoss (Serverless)',
  'opensearch.aws.region': REGION_FIX,
  'opensearch.aws.service': 'use es (OpenSearch Service) or aoss (OpenSearch Serverless)',
  bedrock_kb: 'write an object with knowledge_base_id and region, and optionally number_of_results, model_arn, endpoint',
  'bedrock_kb.knowledge_base_id': 'give the 10-character knowledge base id, e.g. ABCDEFGHIJ',
  'bedrock_kb.number_of_results': 'give a whole number from 1 to 100',
  'bedrock_kb.region': REGION_FIX,
  'bedrock_kb.model_arn': 'give the ARN of the generating model, or drop the key to retrieve only',
  'bedrock_kb.endpoint': "give an http or https URL, or drop the key to use the region's endpoint",
  lambda: 'write an object with function_name, region and results, and optionally payload, response, endpoint',
  'lambda.function_name': 'give the function name or ARN, optionally with :alias',
  'lambda.region': REGION_FIX,
  'lambda.payload': `write the event as JSON; ${TEMPLATE_HINT}`,
  'lambda.results': RESULTS_FIX,
  'lambda.response': "give a JMESPath expression from the function's answer to the generated text",
  'lambda.endpoint': "give an http or https URL, or drop the key to use the region's endpoint",
  postgres: 'write an object with connection_env and sql, and optionally params',
  'postgres.connection_env': 'give the name of the environment variable holding the connection string, e.g. SEARCH_DATABASE_URL',
  'postgres.sql': 'write a SELECT returning doc_uri, content and score; $1 is the query, $2... the params',
  'postgres.params': 'list the matrix variables that become $2, $3, ... in order, e.g. [k]',
  'postgres.params[]': 'give a matrix variable name',
  trec: 'write an object with path, and optionally tag',
  'trec.path': 'give the path of a TREC run file (qid Q0 docno rank score tag)',
  'trec.tag': 'give the run tag to read, or drop the key when the file holds one run',
};

export const ENGINE_CONFIG_FIXES: Readonly<Record<string, string>> = {
  engines: 'give a list of engines, each with a name and one connector key',
  ...Object.fromEntries(Object.entries(FIELD_FIXES).map(([path, fix]) => [path === '' ? PREFIX : `${PREFIX}.${path}`, fix])),
};
