import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../../shared/view/routes.js';

const RUN = 'r-0123456789abcdef';
const OTHER = 'r-fedcba9876543210';

describe("assay view's routes", () => {
  it.each([
    { target: '/', route: { kind: 'suites-page' } },
    { target: '/suites/nightly', route: { kind: 'suite-page', suite: 'nightly', charted: 100 } },
    { target: '/suites/nightly.v2?runs=365', route: { kind: 'suite-page', suite: 'nightly.v2', charted: 365 } },
    { target: `/runs/${RUN}`, route: { kind: 'run-page', runId: RUN } },
    { target: `/runs/${RUN}/cases?offset=200&limit=50`, route: { kind: 'cases-page', runId: RUN, offset: 200, limit: 50 } },
    { target: '/compare', route: { kind: 'compare-page', offset: 0, limit: 50 } },
    {
      target: `/compare?a=${RUN}&b=${OTHER}&engine=bm25%40b%3D0.3&metric=retrieval%2Fground_truth%2Fndcg%4010`,
      route: {
        kind: 'compare-page',
        a: RUN,
        b: OTHER,
        engine: 'bm25@b=0.3',
        metric: 'retrieval/ground_truth/ndcg@10',
        offset: 0,
        limit: 50,
      },
    },
    { target: '/api/suites', route: { kind: 'suites-api' } },
    { target: '/api/suites/nightly/history', route: { kind: 'history-api', suite: 'nightly' } },
    { target: `/api/runs/${RUN}/report`, route: { kind: 'report-api', runId: RUN } },
    { target: `/api/runs/${RUN}/cases`, route: { kind: 'cases-api', runId: RUN, offset: 0, limit: 100 } },
    { target: `/api/compare?a=${RUN}&b=${OTHER}`, route: { kind: 'compare-api', a: RUN, b: OTHER } },
    {
      target: `/api/compare/queries?a=${RUN}&b=${OTHER}&engine=bm25&metric=m&limit=10`,
      route: { kind: 'query-changes-api', a: RUN, b: OTHER, engine: 'bm25', metric: 'm', offset: 0, limit: 10 },
    },
  ])('$target', ({ target, route }) => {
    expect(parseRoute('GET', target)).toEqual({ ok: true, value: route });
  });

  it('takes offsets and limits with leading zeros, as decimal digits', () => {
    expect(parseRoute('GET', `/api/runs/${RUN}/cases?offset=007&limit=010`)).toEqual({
      ok: true,
      value: { kind: 'cases-api', runId: RUN, offset: 7, limit: 10 },
    });
  });

  it.each([
    { name: 'an encoded traversal as a suite', target: '/suites/..%2F..%2Fetc%2Fpasswd', status: 400, message: 'a suite name is letters' },
    {
      name: 'an encoded ".." segment, a dot segment to URLs too',
      target: '/api/suites/%2e%2e/history',
      status: 400,
      message: 'a "." or ".." segment',
    },
    { name: 'a ".." inside a segment', target: '/suites/..%2F', status: 400, message: 'a suite name is letters' },
    {
      name: 'an encoded traversal as a run id',
      target: '/api/runs/..%2F..%2Freports%2Fx/report',
      status: 400,
      message: 'a run id is r- and 16',
    },
    { name: 'a malformed run id', target: '/runs/r-12', status: 400, message: 'a run id is r- and 16' },
    { name: 'a run id with upper-case digits', target: `/runs/${RUN.toUpperCase()}`, status: 400, message: 'a run id is r- and 16' },
    { name: 'a broken percent-encoding', target: '/suites/%E0%A4%A', status: 400, message: 'broken percent-encoding' },
    {
      name: 'a traversal a URL parser would resolve away',
      target: '/runs/../../etc/passwd',
      status: 400,
      message: 'a "." or ".." segment',
    },
    { name: 'a "." segment', target: '/./suites/nightly', status: 400, message: 'a "." or ".." segment' },
    {
      name: 'a ".." segment in upper-case percent-encoding',
      target: '/suites/nightly/%2E%2E/%2E%2E/api/suites',
      status: 400,
      message: 'a "." or ".." segment',
    },
    { name: 'a backslash a URL parser would turn into a slash', target: '/runs\\..\\..\\etc\\passwd', status: 400, message: 'backslash' },
    { name: 'a backslash as the separator of a known path', target: '/api\\suites', status: 400, message: 'backslash' },
    { name: 'an absolute URL as the target', target: 'http://evil.example/api/suites', status: 400, message: 'not a path from "/"' },
    { name: 'a fragment', target: '/api/suites#x', status: 400, message: 'fragment' },
    { name: 'a bad run id in the query', target: `/api/compare?a=${RUN}&b=../x`, status: 400, message: 'b: a run id is r- and 16' },
    { name: 'a missing run in the query', target: `/api/compare?a=${RUN}`, status: 400, message: 'b:' },
    { name: 'a parameter given twice', target: `/api/compare?a=${RUN}&a=${OTHER}&b=${OTHER}`, status: 400, message: '"a" is given twice' },
    {
      name: 'a negative offset',
      target: `/api/runs/${RUN}/cases?offset=-1`,
      status: 400,
      message: 'offset is a whole number written in decimal digits',
    },
    {
      name: 'a hexadecimal offset',
      target: `/api/runs/${RUN}/cases?offset=0x10`,
      status: 400,
      message: 'offset is a whole number written in decimal digits',
    },
    {
      name: 'an empty offset',
      target: `/api/runs/${RUN}/cases?offset=`,
      status: 400,
      message: 'offset is a whole number written in decimal digits',
    },
    {
      name: 'an offset in exponent form',
      target: `/runs/${RUN}/cases?offset=1e3`,
      status: 400,
      message: 'offset is a whole number written in decimal digits',
    },
    {
      name: 'an offset with a space',
      target: `/runs/${RUN}/cases?offset=%205`,
      status: 400,
      message: 'offset is a whole number written in decimal digits',
    },
    {
      name: 'an offset with a decimal point',
      target: `/runs/${RUN}/cases?offset=5.0`,
      status: 400,
      message: 'offset is a whole number written in decimal digits',
    },
    {
      name: 'a hexadecimal limit',
      target: `/compare?a=${RUN}&b=${OTHER}&limit=0x1f`,
      status: 400,
      message: 'limit is a whole number written in decimal digits',
    },
    {
      name: 'an empty limit',
      target: `/api/compare/queries?a=${RUN}&b=${OTHER}&engine=e&metric=m&limit=`,
      status: 400,
      message: 'limit is a whole number written in decimal digits',
    },
    { name: 'a zero limit', target: `/api/runs/${RUN}/cases?limit=0`, status: 400, message: 'limit is 1 or more' },
    {
      name: 'charted runs in hexadecimal',
      target: '/suites/nightly?runs=0x10',
      status: 400,
      message: 'runs is a whole number written in decimal digits',
    },
    { name: 'a limit too large', target: `/api/runs/${RUN}/cases?limit=100000`, status: 400, message: 'limit is at most 1000' },
    { name: 'a limit that is no number', target: `/runs/${RUN}/cases?limit=ten`, status: 400, message: 'limit' },
    { name: 'a suite name too long', target: `/suites/${'s'.repeat(101)}`, status: 400, message: 'at most 100 characters' },
    { name: 'an unknown page', target: '/reports/nightly/latest.json', status: 404, message: 'nothing is served' },
    { name: 'a trailing slash', target: '/suites/nightly/', status: 404, message: 'nothing is served' },
    { name: 'an unknown API', target: '/api/stores', status: 404, message: 'nothing is served' },
  ])('refuses $name with $status', ({ target, status, message }) => {
    const parsed = parseRoute('GET', target);

    expect(parsed).toMatchObject({ ok: false, error: { status } });
    expect(parsed.ok ? '' : parsed.error.message).toContain(message);
  });

  it('refuses every method but GET and HEAD with 405', () => {
    expect(parseRoute('HEAD', '/')).toEqual({ ok: true, value: { kind: 'suites-page' } });
    expect(parseRoute('POST', '/api/suites')).toMatchObject({ ok: false, error: { status: 405 } });
    expect(parseRoute('DELETE', `/api/runs/${RUN}/report`)).toMatchObject({ ok: false, error: { status: 405 } });
  });
});
