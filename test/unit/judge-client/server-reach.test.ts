import { describe, expect, it } from 'vitest';
import { ServerReach, openAiTarget } from '../../../shared/judge-client/server-reach.js';

/**
 * When the judge server counts as unreachable: never answered, and its
 * connection refused or its name unknown. The errors have the shape of
 * Node's fetch errors; a real lookup of an unknown name would need a DNS
 * server.
 */
const fetchFailure = (code: string, message: string): TypeError =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

function reachOf(baseUrl: string | undefined, now: () => number = () => 0): { reach: ServerReach; stops: string[] } {
  const stops: string[] = [];
  return { reach: new ServerReach(openAiTarget(baseUrl), (reason) => stops.push(reason), now, 30_000), stops };
}

describe('ServerReach', () => {
  it('finds a server whose name does not resolve unreachable, names its URL without credentials, and stops the calls once', () => {
    // Prepare
    const { reach, stops } = reachOf('https://judge.invalid/v1?api_key=kept-out');

    // Act
    reach.sawFailure(fetchFailure('ENOTFOUND', 'getaddrinfo ENOTFOUND judge.invalid'));
    reach.sawFailure(fetchFailure('ENOTFOUND', 'getaddrinfo ENOTFOUND judge.invalid'));

    // Assess
    const reason =
      "cannot reach the judge server at https://judge.invalid/v1: the host name did not resolve (ENOTFOUND); check OPENAI_BASE_URL (or the config's judge base_url) and that the server is running";
    expect(reach.unreachable).toBe(reason);
    expect(stops).toEqual([reason]);
  });

  it('names the default server when no base URL is set', () => {
    const { reach } = reachOf(undefined);
    reach.sawFailure(fetchFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:443'));
    expect(reach.unreachable).toMatch(
      /^cannot reach the judge server at https:\/\/api\.openai\.com\/v1: the connection was refused \(ECONNREFUSED\); /,
    );
  });

  it.each([
    ['a name the resolver may know on the next try', fetchFailure('EAI_AGAIN', 'getaddrinfo EAI_AGAIN judge.example')],
    ['a reset connection', fetchFailure('ECONNRESET', 'read ECONNRESET')],
    ['an error that is no network fault', new TypeError('fetch failed', { cause: new Error('invalid header value') })],
  ])('keeps the server reachable after %s', (_described, error) => {
    const { reach, stops } = reachOf('http://127.0.0.1:8000/v1');
    reach.sawFailure(error);
    expect(reach.unreachable).toBeUndefined();
    expect(stops).toEqual([]);
  });

  it('keeps a server that answered once reachable when it later refuses', () => {
    // Prepare
    const { reach, stops } = reachOf('http://127.0.0.1:8000/v1');
    reach.sawAnswer();

    // Act
    reach.sawFailure(fetchFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8000'));

    // Assess
    expect(reach.unreachable).toBeUndefined();
    expect(stops).toEqual([]);
  });

  it('holds its verdict for a while, then lets the next call ask the server again (a gateway that was restarting)', () => {
    // Prepare
    let time = 1_000;
    const { reach, stops } = reachOf('http://127.0.0.1:8000/v1', () => time);
    reach.sawFailure(fetchFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8000'));

    // Act
    time += 29_999;
    const held = reach.unreachable;
    time += 1;
    const after = reach.unreachable;
    reach.sawFailure(fetchFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8000'));

    // Assess: a new refusal after the hold is a new verdict
    expect(held).toMatch(/^cannot reach the judge server at /);
    expect(after).toBeUndefined();
    expect(reach.unreachable).toMatch(/^cannot reach the judge server at /);
    expect(stops).toHaveLength(2);
  });

  it('finds a server that accepts but never answers unreachable once an attempt sent after the first silent one is silent too, and stops the calls once', () => {
    // Prepare: the first attempts of a run, four at once, sent at 0 and timed out at 60 s
    let time = 60_000;
    const { reach, stops } = reachOf('http://127.0.0.1:8000/v1', () => time);
    for (let call = 0; call < 4; call++) reach.sawSilence(0, 60_000);
    const afterFirstRound = reach.unreachable;

    // Act: a retry sent at 61 s, cut at 120 s
    time = 120_000;
    reach.sawSilence(61_000, 60_000);
    reach.sawSilence(61_000, 60_000);

    // Assess
    const reason =
      'the judge server at http://127.0.0.1:8000/v1 sent no answer: an attempt timed out after 60000 ms (judge.timeout_ms), and the attempt ' +
      "after it got no answer either; check that OPENAI_BASE_URL (or the config's judge base_url) names an OpenAI-compatible server, " +
      'or raise judge.timeout_ms for one that takes longer to start';
    expect(afterFirstRound).toBeUndefined();
    expect(reach.unreachable).toBe(reason);
    expect(stops).toEqual([reason]);
  });

  it('gives a server still starting its second attempt: an answer to it keeps the server reachable for good', () => {
    // Prepare: the first attempt timed out
    let time = 60_000;
    const { reach, stops } = reachOf('http://127.0.0.1:8000/v1', () => time);
    reach.sawSilence(0, 60_000);

    // Act: the retry is answered; later attempts time out
    reach.sawAnswer();
    time = 200_000;
    reach.sawSilence(130_000, 60_000);
    reach.sawSilence(140_000, 60_000);

    // Assess
    expect(reach.unreachable).toBeUndefined();
    expect(stops).toEqual([]);
  });
});
