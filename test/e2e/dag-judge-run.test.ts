import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiTestServer, type ChatRequest, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * The decision-tree judge of examples/configs/dag-judge.yaml run end to end
 * by `assay run` (the built bin) against the OpenAI-compatible test server, whose answers
 * follow the summary's real headings, node by node.
 */
const CONFIG = join(import.meta.dirname, '..', '..', 'examples', 'configs', 'dag-judge.yaml');
const PREFIX = 'response/llm_judged/summary_structure';

let folder: TempFolder;
let server: OpenAiTestServer;
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startOpenAiTestServer({ oracle: headingOracle });
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

/** Answers each node from the text it is shown: extracts `# headings`, checks them, orders them. */
function headingOracle(request: ChatRequest) {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  if (system.includes('"output" is')) {
    const headings = [...user.matchAll(/^# (\w+)/gm)].map((match) => match[1]);
    return { json: { rationale: 'the lines starting with #', output: headings.join('\n') } };
  }
  const headings = (user.split('Summary headings:\n')[1] ?? '').split('\n').filter(Boolean);
  if (system.includes('"yes" or "no"')) {
    const complete = ['intro', 'body', 'conclusion'].every((heading) => headings.includes(heading));
    return { json: { rationale: `headings: ${headings.join(', ')}`, verdict: complete ? 'yes' : 'no' } };
  }
  const misplaced = headings.filter((heading, index) => heading !== ['intro', 'body', 'conclusion'][index]).length;
  const verdict = misplaced === 0 ? 'In order' : misplaced === 2 ? 'Two are out of order' : 'All out of order';
  return { json: { rationale: `${misplaced} misplaced`, verdict } };
}

async function run(out: string) {
  const rows = [
    { request_id: 'ordered', request: 'Summarise the meeting', response: '# intro\nWe met.\n# body\nWe talked.\n# conclusion\nWe left.' },
    { request_id: 'swapped', request: 'Summarise the meeting', response: '# intro\nWe met.\n# conclusion\nWe left.\n# body\nWe talked.' },
    { request_id: 'partial', request: 'Summarise the meeting', response: '# body\nWe talked.' },
  ];
  const dataset = await folder.write('summaries.jsonl', rows.map((row) => JSON.stringify(row)).join('\n'));
  const result = await runBuiltCli(['run', dataset, '--config', CONFIG, '--store', join(folder.path, 'store'), '--out', out], {
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
  });
  expect(result.exitCode).toBe(0);
  const lines = (await readFile(join(out, 'cases.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { case_id: string; metrics: Record<string, unknown> });
  return Object.fromEntries(lines.map((line) => [line.case_id, line.metrics]));
}

describe('a decision-tree judge', () => {
  it('scores each summary by the path its answers take, one cached call per node visited', async () => {
    // Act
    const first = await run(join(folder.path, 'first'));
    const callsAfterFirst = server.log.length;
    const second = await run(join(folder.path, 'second'));

    // Assess: 10, 4 and 0 of 10; three nodes asked on the full paths, two on the short one
    expect(first.ordered?.[`${PREFIX}/rating`]).toBe(1);
    expect(first.swapped?.[`${PREFIX}/rating`]).toBe(0.4);
    expect(first.partial?.[`${PREFIX}/rating`]).toBe(0);
    expect(first.swapped?.[`${PREFIX}/score`]).toBe(4);
    expect(first.partial?.[`${PREFIX}/rationale`]).toBe(
      'extract_headings: Summary headings = "body" -> has_all_headings: no (headings: body) -> missing_headings: score 0 of 10',
    );
    expect(callsAfterFirst).toBe(3 + 3 + 2);
    expect(server.log.length).toBe(callsAfterFirst);
    expect(second).toEqual(first);
  });
});
