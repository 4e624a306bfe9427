import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import { caseIdFor } from '../../shared/run/run-identity.js';
import { inputErrorSchema } from '../../shared/schema/input-error.js';
import { silentProgress } from '../support/silent-progress.js';
import { answeredCalls, FAULT_PLACES, readRunFiles, useFaultRun } from './fault-harness.js';

/**
 * A dataset of hostile rows through the whole pipeline, embedded and over the
 * S3/SQS emulator: bad JSON, nesting past the documented 64 levels, a row past
 * the documented 64 Mi characters, `__proto__` and other prototype names,
 * and two requests sharing one case id. The good rows are judged once each;
 * every bad row is an input error with its line; nothing crashes.
 */
const good = (id: string, extra: object = {}) => ({
  request_id: id,
  request: `How do I rotate key ${id}?`,
  response: 'Rotate it.',
  retrieved_context: [{ doc_uri: `${id}-d1`, content: `rotate rotate the key of ${id}` }],
  ...extra,
});

/**
 * fauxqs takes request bodies up to 11 MiB, so over the emulator the row past
 * the size limit is left out (a line of its own size); the embedded variant
 * covers it, and the limit is a property of ingest, not of the store.
 */
function hostileLines(withHugeRow: boolean): { lines: string[]; goodIds: string[]; badLines: number[] } {
  const unsafeId = 'what is x?';
  const lines = [
    JSON.stringify(good('q1')),
    '{"request_id": "broken", "request": ',
    `{"request_id": "deep", "request": "deep", "tags": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    JSON.stringify(good('q2', { metadata: { constructor: 'plain data', toString: 'also data' } })),
    `{"request_id": "proto", "request": "proto", "__proto__": {"polluted": true}}`,
    JSON.stringify(good('constructor')),
    JSON.stringify(good(unsafeId)),
    JSON.stringify(good(caseIdFor(unsafeId))),
    withHugeRow ? JSON.stringify(good('huge', { response: 'x'.repeat(65 * 1024 * 1024) })) : '',
    JSON.stringify(good('q3')),
  ];
  return {
    lines,
    goodIds: ['q1', 'q2', 'constructor', caseIdFor(unsafeId), 'q3'].sort(),
    badLines: withHugeRow ? [2, 3, 5, 8, 9] : [2, 3, 5, 8],
  };
}

describe.each(FAULT_PLACES)('a file of hostile rows, $name', (place) => {
  const fault = useFaultRun(place);

  it('judges every good row once and reports every bad row with its line, without crashing', async () => {
    // Prepare
    const { lines, goodIds, badLines } = hostileLines(!place.onEmulator);
    const dataset = await fault.folder.write('hostile.jsonl', `${lines.join('\n')}\n`);
    const infrastructure = await fault.infrastructure('assay-hostile');
    const out = join(fault.folder.path, 'out');

    // Act
    const result = await runPipeline(
      {
        datasetPath: dataset,
        suite: 'hostile',
        config: configFileSchema.parse({ judges: ['chunk_relevance'] }),
        strict: false,
        noCache: false,
        concurrency: 4,
        outFolder: out,
        environment: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fault.server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
      },
      infrastructure,
      silentProgress,
    );

    // Assess: the good cases once each, the bad rows as input errors naming their lines
    const files = await readRunFiles(out);
    expect(files.report.cases).toEqual({ total: goodIds.length, evaluated: goodIds.length, failed: 0, missing: 0, judge_failed: 0 });
    expect([...new Set(files.caseLines.map((line) => line.case_id))].sort()).toEqual(goodIds);
    expect(files.caseLines).toHaveLength(goodIds.length);
    expect(files.report.input_errors).toBe(badLines.length);
    const errorsText = new TextDecoder().decode(await infrastructure.store.get(`runs/${result.runId}/input-errors.jsonl`));
    const errors = errorsText
      .trim()
      .split('\n')
      .map((line) => inputErrorSchema.parse(JSON.parse(line)));
    expect(errors.map((error) => error.line).sort((left, right) => left - right)).toEqual(badLines);
    expect(files.report.warnings?.[0]).toMatch(
      new RegExp(`^datasets/\\S+ has ${badLines.length} input errors: what they name is in no metric \\(the first: `),
    );
    expect(answeredCalls(fault.server, 'chunk_relevance')).toBe(goodIds.length);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await readFile(join(out, 'report.json'), 'utf8')).not.toContain('polluted');
  }, 120_000);
});
