import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import { readJsonArray } from '../../shared/readers/json-array-reader.js';

/**
 * One loading of a JSON array dataset, as a process of its own: reads every
 * row with assay's reader (`--reader assay`; the benchmark bundles it once
 * with today's splitter and once with a reference build's) or with
 * stream-json (`--reader stream-json`), and prints the rows, a digest of
 * them (each row's JSON.stringify, in order) and this process's CPU time.
 *
 *   node load.mjs --reader assay|stream-json FILE
 */
const { values, positionals } = parseArgs({ options: { reader: { type: 'string', default: 'assay' } }, allowPositionals: true });
const [file] = positionals;
if (file === undefined) throw new Error('Give the JSON array file to load');

const digest = createHash('sha256');
let rows = 0;
let badRows = 0;
const started = process.hrtime.bigint();
if (values.reader === 'stream-json') {
  const stream = createReadStream(file).pipe(StreamArray.withParser());
  for await (const { value } of stream as AsyncIterable<{ value: unknown }>) {
    digest.update(JSON.stringify(value));
    rows++;
  }
} else {
  for await (const event of readJsonArray(file)) {
    if (event.kind === 'row') {
      digest.update(JSON.stringify(event.row.fields));
      rows++;
    } else {
      badRows++;
    }
  }
}
const { user, system } = process.cpuUsage();
const loadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(
  `${JSON.stringify({ rows, badRows, digest: digest.digest('hex'), cpuSeconds: (user + system) / 1e6, loadSeconds })}\n`,
);
