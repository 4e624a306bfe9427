import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A dataset of `queries` queries with `passages` retrieved passages each, one
 * chunk judgment a passage, written to `folder`; the judge benches' input
 * (judge-throughput.bench.ts, judge-cpu.bench.ts). Returns its path.
 */
export async function writePassageDataset(folder: string, queries: number, passages: number): Promise<string> {
  const path = join(folder, `q${queries}-p${passages}.jsonl`);
  const lines = Array.from({ length: queries }, (_, query) =>
    JSON.stringify({
      request_id: `q${query}`,
      request: `question number ${query} about topic ${query % 17}`,
      response: `answer ${query}`,
      retrieved_context: Array.from({ length: passages }, (_, passage) => ({
        doc_uri: `d${query}-${passage}`,
        content: `passage ${passage} for question ${query}`,
      })),
    }),
  );
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}
