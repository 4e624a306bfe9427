import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleEngine, type ExampleEngine } from '../support/example-engine.js';
import { startRecordingServer } from '../support/recording-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const root = join(import.meta.dirname, '..', '..');
const execFileAsync = promisify(execFile);
let folder: TempFolder;
let service: ExampleEngine;
let failing: ExampleEngine;

/** The sweep config of docs/engines.md (examples/configs/sweep.yaml), pointed at a service started on a free port. */
async function sweepConfig(url: string, name: string): Promise<string> {
  const shipped = await readFile(join(root, 'examples', 'configs', 'sweep.yaml'), 'utf8');
  return folder.write(name, shipped.replaceAll('http://127.0.0.1:8700', url));
}

beforeAll(async () => {
  folder = await createTempFolder();
  [service, failing] = await Promise.all([startExampleEngine(), startExampleEngine(['--fail-rate', '1'])]);
}, 60_000);

afterAll(async () => {
  await Promise.all([service.stop(), failing.stop()]);
  await folder.remove();
});

describe('assay engines against the example BM25 service', () => {
  it('lists the expanded engines of the sweep config', async () => {
    // Prepare
    const config = await sweepConfig(service.url, 'list.yaml');

    // Act
    const outcome = await runCli(['engines', '--config', config]);

    // Assess
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout.split('\n')).toEqual([
      'ENGINE       CONNECTOR  TARGET',
      `bm25@b=0.3   http       POST ${service.url}/search`,
      `bm25@b=0.75  http       POST ${service.url}/search`,
      `bm25-title   http       POST ${service.url}/search`,
      '',
    ]);
  });

  it('asks every engine once and prints ranked hits with scores and latency', async () => {
    // Prepare
    const config = await sweepConfig(service.url, 'query.yaml');

    // Act
    const outcome = await runCli(['engines', '--config', config, '--query', 'how do I rotate an AWS access key without downtime']);

    // Assess
    expect(outcome.stderr).toBe('');
    expect(outcome.exitCode).toBe(0);
    for (const name of ['bm25@b=0.3', 'bm25@b=0.75', 'bm25-title']) {
      expect(outcome.stdout).toMatch(
        new RegExp(`^${name.replace(/[.@]/g, '\\$&')} \\(http, POST ${service.url}/search\\): \\d+ hits? in \\d+\\.\\d ms$`, 'm'),
      );
    }
    expect(outcome.stdout).toMatch(/^ {4}1 {2}iam-rotate-keys +\d+\.\d{4} {2}To rotate an access key without downtime/m);
    // b changes the scores: the two variants really sent different parameters.
    const topScores = [...outcome.stdout.matchAll(/^ {4}1 {2}iam-rotate-keys +(\d+\.\d{4})/gm)].map((match) => match[1]);
    expect(new Set(topScores.slice(0, 2)).size).toBe(2);
  });

  it('prints the error of an engine that keeps failing and exits with 1', async () => {
    // Prepare
    const config = await sweepConfig(failing.url, 'failing.yaml');

    // Act
    const outcome = await runCli(['engines', '--config', config, '--query', 'rotate keys']);

    // Assess
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stdout).toContain(
      `  error (transient): POST ${failing.url}/search answered HTTP 503: {"error":"injected failure"} (after 3 attempts)`,
    );
  });

  it('refuses a config without engines', async () => {
    // Prepare
    const config = await folder.write('none.yaml', 'judges: [document_recall]\n');

    // Act
    const outcome = await runCli(['engines', '--config', config]);

    // Assess
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toContain('no engines: list (fix: add engines');
  });

  it('names an environment variable that is not set before calling anything', async () => {
    // Prepare
    const config = await folder.write(
      'env.yaml',
      `engines:\n  - name: secured\n    http: {url: "${service.url}/search", headers: {Authorization: "Bearer {{env.ASSAY_TEST_UNSET_TOKEN}}"}, results: "hits[].{doc_uri: id}"}\n`,
    );

    // Act
    const outcome = await runCli(['engines', '--config', config, '--query', 'keys']);

    // Assess
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toBe(
      'assay engines: engine "secured": the environment variable ASSAY_TEST_UNSET_TOKEN is not set (fix: export ASSAY_TEST_UNSET_TOKEN before running)\n',
    );
  });

  it('shows control characters of what a service answers escaped, so its hits cannot drive the terminal', async () => {
    // Prepare: a service whose hit id, text and answer carry OSC, CSI and C1 sequences
    const hostile = await startRecordingServer(() => ({
      body: { hits: [{ id: 'doc\u001b]0;owned\u0007', text: 'text \u001b[2J', score: 1 }], answer: 'answer \u009b31m' },
    }));
    const config = await folder.write(
      'hostile.yaml',
      `engines:\n  - name: hostile\n    http: {url: "${hostile.url}/search", results: "hits[].{doc_uri: id, content: text, score: score}", response: answer}\n`,
    );

    // Act
    const outcome = await runCli(['engines', '--config', config, '--query', 'keys']).finally(() => hostile.close());

    // Assess
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(outcome.stdout).toContain('    1  doc\\x1b]0;owned\\x07      1.0000  text \\x1b[2J');
    expect(outcome.stdout).toContain('  response: answer \\x9b31m');
  });
});

describe('the example BM25 service', () => {
  it('exits 2 naming the port when the port is in use, as by one started earlier, instead of a stack trace', async () => {
    // Prepare: the port the running service listens on
    const port = new URL(service.url).port;

    // Act
    const second = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', join(root, 'examples', 'engines', 'bm25-server.ts'), '--port', port],
      {
        cwd: root,
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );

    // Assess
    expect(second).toEqual({
      code: 2,
      stderr: `port ${port} on 127.0.0.1 is in use, perhaps by an example engine started earlier: stop that one, or start this one with --port and a free port, and give that port in the engines' url of the config\n`,
    });
  });
});
