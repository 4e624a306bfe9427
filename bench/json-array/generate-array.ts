import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mulberry32 } from '../generate-collection.js';

/**
 * Writes a JSON array dataset for the loading benchmark: one row object a
 * line, `[\n{...},\n{...}\n]`, each with a request, an expected response and
 * three retrieved passages whose text mixes ASCII words, accented and CJK
 * text, emoji, and escapes (`\n`, `\t`, `\"`, `\\`, `\u00e9`), until the file
 * holds `rows` rows of about `bytes / rows` bytes each. Deterministic: the
 * same seed writes the same bytes.
 */
export async function generateJsonArray(path: string, options: { rows: number; bytes: number; seed: number }): Promise<void> {
  const random = mulberry32(options.seed);
  const out = createWriteStream(path);
  const rowBytes = options.bytes / options.rows;
  // Non-ASCII text takes more bytes than characters: the passages' length in characters follows the ratio so far.
  let [bytesSoFar, charactersSoFar] = [1, 1];
  let batch = '[\n';
  for (let index = 0; index < options.rows; index++) {
    const row = {
      request_id: `q-${index}`,
      request: sentence(random, 12),
      expected_response: sentence(random, 40),
      retrieved_context: Array.from({ length: 3 }, (_, passage) => ({
        doc_uri: `https://docs.example/${index}/${passage}`,
        // The passages take whatever the other fields leave of the row's share of the file.
        content: paragraph(random, Math.max(64, Math.floor((rowBytes - 1175) / 3 / (bytesSoFar / charactersSoFar)))),
      })),
      tags: ['bench', index % 2 === 0 ? 'even' : 'odd'],
      score: Math.round(random() * 1e6) / 1e6,
    };
    // A few non-ASCII letters as \u escapes, as some writers emit them.
    const line = JSON.stringify(row).replaceAll('é', '\\u00e9') + (index + 1 < options.rows ? ',\n' : '\n');
    bytesSoFar += Buffer.byteLength(line);
    charactersSoFar += line.length;
    batch += line;
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(`${batch}]\n`);
  await once(out, 'finish');
}

const WORDS = [
  'retrieval',
  'evaluation',
  'ranking',
  'passage',
  'query',
  'judge',
  'relevance',
  'context',
  'answer',
  'model',
  'café',
  'naïve',
  'Straße',
  'über',
  'résumé',
  'détente',
  '検索',
  '評価',
  '文書',
  'очередь',
  'ποιότητα',
  '🙂',
  '✓',
  'a "quoted" word',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  'C:\\path\\to',
  'x < y & z > w',
];

function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** About `characters` characters of sentences. */
function paragraph(random: () => number, characters: number): string {
  let text = '';
  while (text.length < characters) text += `${sentence(random, 8 + Math.floor(random() * 8))}. `;
  return text.slice(0, characters);
}
