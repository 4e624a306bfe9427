import { join } from 'node:path';
import type { TempFolder } from './temp-folder.js';

/**
 * The arguments of an `assay run` over `queries` questions of 5 retrieved
 * passages each, judged by chunk_relevance alone (one judgment a passage),
 * 16 at a time and without the cache: a dataset and config written to
 * `folder`, the store and report in it too.
 */
export async function passagesRun(folder: TempFolder, queries: number): Promise<string[]> {
  const rows = Array.from({ length: queries }, (_, query) => ({
    request_id: `q${query}`,
    request: `question ${query}`,
    response: `answer ${query}`,
    retrieved_context: Array.from({ length: 5 }, (_, passage) => ({
      doc_uri: `d${query}-${passage}`,
      content: `passage ${passage} of question ${query}`,
    })),
  }));
  const dataset = await folder.write('passages.jsonl', `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  const config = await folder.write('config.json', JSON.stringify({ judges: ['chunk_relevance'] }));
  const [store, out] = [join(folder.path, 'store'), join(folder.path, 'out')];
  return ['run', dataset, '--config', config, '--store', store, '--out', out, '--concurrency', '16', '--no-cache'];
}
