import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { startBlackholedPort } from '../support/blackholed-port.js';
import { runBuiltCli } from '../support/built-cli.js';
import { startSilentServer } from '../support/misbehaving-servers.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer } from '../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay run` against a judge or an engine it cannot use, through the built
 * CLI: a port whose connections never open (a firewall that drops the
 * packets), a server that accepts connections and never answers, a base URL
 * that answers a web page. Each ends the run with exit 1 and the reason in
 * seconds, where the retries and deadlines alone would take minutes a call,
 * in silence, or a page would end it with a TypeError's words.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');

let folders: TempFolder[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => folder.remove()));
  folders = [];
});

/** A folder of the test's own: the two tests run at once, each mostly waiting. */
async function ownFolder(): Promise<TempFolder> {
  const folder = await createTempFolder();
  folders.push(folder);
  return folder;
}

/** A loopback HTTP server answering with `handle`; `close` ends its connections too, the ones it never answered among them. */
async function serve(handle: RequestListener): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The last line on stderr: the one that says why the command failed. */
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

/** A URL as a regular expression matches it. */
const escaped = (text: string) => text.replaceAll('.', '\\.').replaceAll('/', '\\/');

describe.concurrent('assay run against a judge or an engine it cannot use', () => {
  it('exits 1 within seconds when the judge port drops connections (no connection opens), naming the URL and why', async ({ expect }) => {
    // Prepare: a port whose connections never open, as behind a firewall; the system alone would try each for about two minutes
    const hole = await startBlackholedPort();
    const folder = await ownFolder();
    const baseUrl = `http://127.0.0.1:${hole.port}/v1`;
    const env = { OPENAI_API_KEY: 'sk-exit-status-Hn4Kd8Lq2Zr6', OPENAI_BASE_URL: baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
    const startedAt = Date.now();

    try {
      // Act
      const args = ['--judges', 'chunk_relevance', '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')];
      const result = await runBuiltCli(['run', DATASET, ...args], { env });

      // Assess: one connect timeout (10 s) and the run is over
      expect(result.exitCode).toBe(1);
      expect(lastLine(result.stderr)).toMatch(
        new RegExp(
          `^assay run: no case could be evaluated \\((\\d+) failed, 0 missing\\); the first failure, q\\d+: .*cannot reach the judge server at ${escaped(baseUrl)}: ` +
            'no connection opened in time, as when a firewall drops the packets to the port or no host has that address \\(UND_ERR_CONNECT_TIMEOUT\\); check OPENAI_BASE_URL',
        ),
      );
      expect(Date.now() - startedAt).toBeLessThan(25_000);
    } finally {
      await hole.close();
    }
  }, 60_000);

  it('exits 1 within seconds when the judge server accepts connections and never answers, naming judge.timeout_ms', async ({ expect }) => {
    // Prepare: a server that reads every request and answers none; attempts of half a second (the default deadline, 120 s a judgment, stays)
    const silent = await startSilentServer();
    const folder = await ownFolder();
    const baseUrl = `${silent.origin}/v1`;
    const config = await folder.write('config.yaml', 'judge:\n  timeout_ms: 500\n');
    const env = { OPENAI_API_KEY: 'sk-exit-status-Hn4Kd8Lq2Zr6', OPENAI_BASE_URL: baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };
    const startedAt = Date.now();

    try {
      // Act
      const args = [
        '--config',
        config,
        '--judges',
        'chunk_relevance',
        '--store',
        join(folder.path, 'store'),
        '--out',
        join(folder.path, 'out'),
      ];
      const result = await runBuiltCli(['run', DATASET, ...args], { env });

      // Assess
      expect(result.exitCode).toBe(1);
      expect(lastLine(result.stderr)).toMatch(
        new RegExp(
          `^assay run: no case could be evaluated \\((\\d+) failed, 0 missing\\); the first failure, q\\d+: .*the judge server at ${escaped(baseUrl)} sent no answer: ` +
            'an attempt timed out after 500 ms \\(judge\\.timeout_ms\\), and the attempt after it got no answer either; check that OPENAI_BASE_URL',
        ),
      );
      expect(Date.now() - startedAt).toBeLessThan(20_000);
    } finally {
      await silent.close();
    }
  }, 60_000);

  it('exits 1 within seconds when an engine accepts connections and never answers, naming the engine and its timeout_ms', async ({
    expect,
  }) => {
    // Prepare: a search service that reads every request and answers none; attempts of 300 ms, two retries
    const silent = await startSilentServer();
    const folder = await ownFolder();
    const url = `${silent.origin}/search`;
    const config = await folder.write(
      'engines.yaml',
      [
        'judges: [document_recall]',
        'engines:',
        '  - name: bm25',
        '    timeout_ms: 300',
        '    retries: 2',
        '    http:',
        `      url: ${url}`,
        '      body: { query: "{{query}}" }',
        '      results: "hits[].{doc_uri: id, content: text}"',
        '',
      ].join('\n'),
    );
    const startedAt = Date.now();

    try {
      // Act
      const args = ['--config', config, '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')];
      const result = await runBuiltCli(['run', DATASET, ...args], { env: { OPENAI_API_KEY: '' } });

      // Assess
      expect(result.exitCode).toBe(1);
      expect(lastLine(result.stderr)).toMatch(
        new RegExp(
          '^assay run: no case could be evaluated \\((\\d+) failed, 0 missing\\); the first failure, q\\d+: engine "bm25": the service sent no answer: ' +
            "an attempt timed out after 300 ms \\(the engine's timeout_ms\\), and the attempt after it got no answer either; check the engine's address",
        ),
      );
      expect(Date.now() - startedAt).toBeLessThan(20_000);
    } finally {
      await silent.close();
    }
  }, 60_000);

  it('exits 1 when the judge base URL answers a web page, naming the page', async ({ expect }) => {
    // Prepare: a chat app's page where its API should be
    const page = await serve((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><html><body>Chat UI</body></html>');
      });
    });
    const folder = await ownFolder();
    const baseUrl = `${page.origin}/v1`;
    const env = { OPENAI_API_KEY: 'sk-exit-status-Hn4Kd8Lq2Zr6', OPENAI_BASE_URL: baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' };

    try {
      // Act
      const args = ['--judges', 'chunk_relevance', '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')];
      const result = await runBuiltCli(['run', DATASET, ...args], { env });

      // Assess
      expect(result.exitCode).toBe(1);
      expect(lastLine(result.stderr)).toMatch(
        new RegExp(
          `^assay run: every judge call failed \\((\\d+) of \\1\\); the first: .*the judge server at ${escaped(baseUrl)} answered with ` +
            'no chat completion \\(text, not JSON\\): "<!doctype html><html><body>Chat UI</body></html>"; check that OPENAI_BASE_URL',
        ),
      );
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe.concurrent('assay run against a judge server without the model asked for', () => {
  it('stops at the first answer that the model does not exist, naming what to check, where it asked once a judgment', async ({
    expect,
  }) => {
    // Prepare: a server that answers every chat completion as OpenAI does for a model it does not have
    let requests = 0;
    const server = await serve((request, response) => {
      requests += 1;
      request.resume();
      response.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message: 'The model `gpt-5-typo` does not exist or you do not have access to it.',
            type: 'invalid_request_error',
            code: 'model_not_found',
          },
        }),
      );
    });
    const folder = await ownFolder();
    const env = { OPENAI_API_KEY: 'sk-model-typo-Hn4Kd8Lq2Zr6', OPENAI_BASE_URL: `${server.origin}/v1`, ASSAY_JUDGE_MODEL: 'gpt-5-typo' };

    // Act
    const run = await runBuiltCli(['run', DATASET, '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')], { env });
    await server.close();

    // Assess: the calls in flight at the first answer (8 at once by default), not one for each of the run's 136 judgments
    expect(run.exitCode).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      'assay run: every judge call failed (136 of 136); the first: the judge server has no such model (HTTP 404: The model `gpt-5-typo` does not exist or you do not have access to it.); ' +
        "check the judge's model (ASSAY_JUDGE_MODEL, or judge.model in the config): the server lists its models at GET /models under the base URL",
    );
    expect(requests).toBeLessThanOrEqual(8);
  });
});

describe.concurrent('assay run where the environment names a proxy', () => {
  it('says the proxy is not used, naming the judge host, and judges directly; not where NO_PROXY names the host', async ({ expect }) => {
    // Prepare: a judge on loopback, and HTTPS_PROXY at a port nothing listens on (were it used, no call would pass)
    const judge = await startOpenAiTestServer({ oracle: catalogOracle });
    const proxy = await serve(() => {});
    await proxy.close();
    const folder = await ownFolder();
    const env = {
      OPENAI_API_KEY: 'sk-proxy-note-Hn4Kd8Lq2Zr6',
      OPENAI_BASE_URL: judge.baseUrl,
      ASSAY_JUDGE_MODEL: 'judge-model',
      HTTPS_PROXY: proxy.origin,
    };
    const args = (name: string) => [
      'run',
      DATASET,
      '--judges',
      'chunk_relevance',
      '--store',
      join(folder.path, name),
      '--out',
      join(folder.path, `${name}-out`),
    ];

    // Act: two runs, and assay resume of the first
    const [proxied, exempt] = await Promise.all([
      runBuiltCli(args('proxied'), { env }),
      runBuiltCli(args('exempt'), { env: { ...env, NO_PROXY: 'localhost,127.0.0.1' } }),
    ]);
    const runId = /^run (r-[0-9a-f]{16})$/m.exec(proxied.stdout)?.[1] ?? '';
    const resumed = await runBuiltCli(
      ['resume', runId, '--store', join(folder.path, 'proxied'), '--out', join(folder.path, 'resumed-out')],
      {
        env,
      },
    ).finally(() => judge.close());

    // Assess
    expect([proxied.exitCode, exempt.exitCode, resumed.exitCode]).toEqual([0, 0, 0]);
    expect(resumed.stderr).toContain('assay: HTTPS_PROXY is set, but assay uses no proxy: it calls the judge server at 127.0.0.1 directly');
    expect(proxied.stderr).toContain(
      'assay: HTTPS_PROXY is set, but assay uses no proxy: it calls the judge server at 127.0.0.1 directly (engines and AWS too); ' +
        'where the network lets only the proxy out, those calls fail as unreachable\n',
    );
    expect(exempt.stderr).not.toContain('uses no proxy');
  });
});

describe.concurrent('a command pointed at an --aws-endpoint it cannot use', () => {
  /** A port nothing listens on: a server's, once closed. */
  async function closedPort(): Promise<string> {
    const server = await serve(() => {});
    await server.close();
    return server.origin;
  }

  it('says nothing answers there and how to start it, where the SDK said "connect ECONNREFUSED ... (unexpected error)"', async ({
    expect,
  }) => {
    // Prepare: the endpoint of an emulator that is not running
    const endpoint = await closedPort();
    const folder = await ownFolder();
    const expected = `nothing answers at --aws-endpoint ${endpoint}: the connection was refused (ECONNREFUSED); start the S3 and SQS service there (the emulator), or give the address it listens on`;

    // Act: a run, and a command that reads a run's state
    const [run, status] = await Promise.all([
      runBuiltCli(['run', DATASET, '--aws-endpoint', endpoint, '--out', join(folder.path, 'out')]),
      runBuiltCli(['status', 'r-0123456789abcdef', '--aws-endpoint', endpoint]),
    ]);

    // Assess
    expect([run.exitCode, status.exitCode]).toEqual([1, 1]);
    expect(lastLine(run.stderr)).toBe(`assay run: ${expected}`);
    expect(lastLine(status.stderr)).toBe(`assay status: ${expected}`);
  });

  it('says the server there is no SQS service when it is an S3 alone (as MinIO is), which answers the bucket and not the queues', async ({
    expect,
  }) => {
    // Prepare: an S3 that has the bucket and answers SQS's JSON calls with its own XML error, as an S3-only server does
    const s3Only = await serve((request, response) => {
      request.resume();
      request.on('end', () => {
        if (request.method === 'POST' && request.url === '/') {
          response
            .writeHead(400, { 'content-type': 'application/xml' })
            .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidRequest</Code><Message>Unsupported request</Message></Error>');
          return;
        }
        response.writeHead(200).end();
      });
    });
    const folder = await ownFolder();

    // Act
    const run = await runBuiltCli(['run', DATASET, '--aws-endpoint', s3Only.origin, '--out', join(folder.path, 'out')]);
    await s3Only.close();

    // Assess
    expect(run.exitCode).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      `assay run: the server at --aws-endpoint ${s3Only.origin} is no SQS service: its answer to an SQS call, HTTP 400 with application/xml, ` +
        'is none the AWS SDK can read; assay needs S3 and SQS at that one address (an emulator of both)',
    );
  });

  it('says the server there is no S3 service when a web server answers, and never takes its 404 page for a missing run', async ({
    expect,
  }) => {
    // Prepare: a web server on the port (a web app, the example engine): an HTML page for every request
    const web = await serve((_request, response) => {
      response
        .writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><head><meta charset="utf-8"></head><body>Not Found</body></html>');
    });
    const folder = await ownFolder();
    const expected = `the server at --aws-endpoint ${web.origin} is no S3 or SQS service: it answered HTTP 404 with text/html, which the AWS SDK cannot read; give the address of the S3 and SQS endpoint (the emulator's port)`;

    // Act: a run; and `baseline set`, which read the page as "no such report" (and ignored --aws-endpoint without --bucket)
    const [run, baseline] = await Promise.all([
      runBuiltCli(['run', DATASET, '--aws-endpoint', web.origin, '--out', join(folder.path, 'out')]),
      runBuiltCli(['baseline', 'set', 'r-0123456789abcdef', '--aws-endpoint', web.origin], { cwd: folder.path }),
    ]);
    await web.close();

    // Assess
    expect([run.exitCode, baseline.exitCode]).toEqual([1, 1]);
    expect(lastLine(run.stderr)).toBe(`assay run: ${expected}`);
    expect(lastLine(baseline.stderr)).toBe(`assay baseline set: ${expected}`);
  });
});
