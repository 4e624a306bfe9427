import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import { runBuiltCli } from '../support/built-cli.js';
import { rawGet, rawRequest } from '../support/raw-http-request.js';
import { nights, reportNights } from '../support/reported-suite.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { until } from '../support/until.js';
import { startViewProcess, type ViewProcess } from '../support/view-process.js';

/**
 * `assay view` through the built CLI, bound beyond loopback and asked with
 * raw sockets: the warning on stderr, the Host check that stays on, the
 * names `--allow-host` adds, the default-port Host of port 80, the
 * Content-Security-Policy of every answer, and paths a client would
 * normalise before sending (dot segments, backslashes). The requests go to
 * 127.0.0.1 only; a wildcard bind listens there too.
 */
const SUITE = 'nightly';
let folder: TempFolder;
let store: string;
const started: ViewProcess[] = [];

beforeAll(async () => {
  folder = await createTempFolder();
  store = join(folder.path, 'store');
  await reportNights(new LocalFolderStore(store), SUITE, nights(2));
});

afterAll(async () => {
  for (const view of started) await view.stop();
  await folder?.remove();
});

async function view(...args: string[]): Promise<ViewProcess> {
  const process = await startViewProcess(['--store', store, '--port', '0', ...args]);
  started.push(process);
  return process;
}

const portOf = (url: string): string => new URL(url).port;

describe('assay view bound beyond loopback', () => {
  it.each(['0.0.0.0', '0', '::', '::0', '0:0:0:0:0:0:0:0'])(
    '--host %s warns on stderr what it exposes, and keeps refusing a foreign Host',
    async (host) => {
      // Act
      const served = await view('--host', host);
      await until(() => served.stderr().includes('serving the store'), 5_000);
      const port = portOf(served.url);
      const foreign = await rawGet(served.url, '/api/suites', `evil.example:${port}`);
      const rebound = await rawGet(served.url, '/api/suites', `127.0.0.1.evil.example:${port}`);
      const none = await rawRequest(served.url, ['GET /api/suites HTTP/1.0']);
      const noneOfHttp11 = await rawRequest(served.url, ['GET /api/suites HTTP/1.1']);
      const loopback = await rawGet(served.url, '/api/suites', `127.0.0.1:${port}`);

      // Assess
      expect(served.url).toBe(`http://${host.includes(':') ? '[::1]' : '127.0.0.1'}:${port}/`);
      const wildcard = host.includes(':') ? '[::]' : '0.0.0.0';
      expect(served.stderr()).toContain(
        `assay view: warning: listening on ${wildcard}, every network interface of this machine, port ${port}: anyone who can connect to it reads the whole store ${store}`,
      );
      expect(served.stderr()).toContain('It answers requests for 127.0.0.1, localhost, [::1]');
      for (const refused of [foreign, rebound, none, noneOfHttp11]) {
        expect(refused.status).toBe(403);
        expect(refused.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
        expect(refused.body).not.toContain(SUITE);
        expect(JSON.parse(refused.body).error).toContain('--allow-host NAME');
      }
      expect(loopback.status).toBe(200);
      expect(JSON.parse(loopback.body).suites[0].suite).toBe(SUITE);
    },
  );

  it('answers the names given with --allow-host, and no other', async () => {
    const served = await view('--host', '0.0.0.0', '--allow-host', 'View.Example.com', '--allow-host', '10.1.2.3');
    const port = portOf(served.url);

    const named = await rawGet(served.url, '/', `view.example.com:${port}`);
    const address = await rawGet(served.url, '/api/suites', `10.1.2.3:${port}`);
    const other = await rawGet(served.url, '/', `other.example.com:${port}`);

    expect(named.status).toBe(200);
    expect(named.body).toContain('<h1>Suites</h1>');
    expect(address.status).toBe(200);
    expect(other.status).toBe(403);
    expect(other.headers['content-type']).toBe('text/html; charset=utf-8');
    await until(() => served.stderr().includes('serving the store'), 5_000);
    expect(served.stderr()).toContain('view.example.com, 10.1.2.3 only');
  });

  it('says nothing on the default bind, and checks the Host there too', async () => {
    const served = await view();
    const port = portOf(served.url);

    const foreign = await rawGet(served.url, '/api/suites', `evil.example:${port}`);
    const local = await rawGet(served.url, '/api/suites', `localhost:${port}`);

    expect(foreign.status).toBe(403);
    expect(local.status).toBe(200);
    await until(() => served.stderr().includes('serving the store'), 5_000);
    expect(served.stderr()).not.toContain('warning');
  });

  it('refuses an --allow-host that is not a host name, as a usage error', async () => {
    const outcome = await runBuiltCli(['view', '--store', store, '--port', '0', '--allow-host', 'view.example.com:8750']);

    expect(outcome.exitCode).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('--allow-host got "view.example.com:8750" is not a host name');
  });

  it('answers a browser’s Host without a port on --port 80', async (context) => {
    let served: ViewProcess;
    try {
      served = await startViewProcess(['--store', store, '--port', '80']);
    } catch (error) {
      // Port 80 needs the right to bind it and nothing else on it: not every machine that runs the tests gives both.
      context.skip(`port 80 is not available here: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      return;
    }
    started.push(served);

    const bare = await rawGet(served.url, '/api/suites', '127.0.0.1');
    const named = await rawGet(served.url, '/api/suites', 'localhost');
    const explicit = await rawGet(served.url, '/api/suites', '127.0.0.1:80');
    const foreign = await rawGet(served.url, '/api/suites', 'evil.example');

    expect(served.url).toBe('http://127.0.0.1:80/');
    expect([bare.status, named.status, explicit.status, foreign.status]).toEqual([200, 200, 200, 403]);
  });
});

describe('paths as sent', () => {
  let served: ViewProcess;
  let host: string;

  beforeAll(async () => {
    served = await view();
    host = new URL(served.url).host;
  });

  it.each([
    ['/runs/../../etc/passwd', 'a "." or ".." segment'],
    ['/suites/nightly/../../api/suites', 'a "." or ".." segment'],
    ['/./api/suites', 'a "." or ".." segment'],
    ['/api/suites/%2e%2e/%2E%2E/history', 'a "." or ".." segment'],
    ['/api\\suites', 'backslash'],
    ['/runs\\..\\..\\etc\\passwd', 'backslash'],
    [`/api/runs/r-0000000000000001/cases?offset=0x10`, 'offset is a whole number written in decimal digits'],
    [`/api/runs/r-0000000000000001/cases?offset=`, 'offset is a whole number written in decimal digits'],
    [`/api/runs/r-0000000000000001/cases?limit=1e2`, 'limit is a whole number written in decimal digits'],
  ])('refuses %s with 400', async (path, says) => {
    const answer = await rawGet(served.url, path, host);

    expect(answer.status).toBe(400);
    expect(answer.body).toContain(says.replaceAll('"', path.startsWith('/api') ? '\\"' : '&quot;'));
    expect(answer.body).not.toContain('root:');
  });

  it('sends a Content-Security-Policy on every answer: pages, stored pages, data and refusals', async () => {
    const answers = await Promise.all([
      rawGet(served.url, '/', host),
      rawGet(served.url, '/runs/r-0000000000000002', host),
      rawGet(served.url, '/suites/nightly', host),
      rawGet(served.url, '/api/suites', host),
      rawGet(served.url, '/nothing', host),
      rawGet(served.url, '/api/suites', 'evil.example'),
      rawRequest(served.url, ['POST /api/suites HTTP/1.1', `Host: ${host}`, 'Content-Length: 0']),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 404, 403, 405]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toMatch(/^default-src 'none'; .*frame-ancestors 'none'/);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(answers[1]?.headers['content-security-policy']).toMatch(/; sandbox allow-scripts$/);
    expect(answers[3]?.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  });
});
