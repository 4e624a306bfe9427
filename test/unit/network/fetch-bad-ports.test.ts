import { describe, expect, it } from 'vitest';
import { FETCH_BAD_PORTS, fetchRefusedPort } from '../../../shared/network/fetch-bad-ports.js';

/** Whether this Node's fetch refuses `port` before connecting: the cause `bad port` rather than a connection error. */
async function refusedByFetch(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch (error) {
    return error instanceof Error && error.cause instanceof Error && error.cause.message === 'bad port';
  }
}

describe('the ports fetch refuses', () => {
  it("holds exactly the ports this Node's fetch refuses, among them and their neighbours", async () => {
    // Prepare: every listed port, and the ports next to each that the list leaves out
    const neighbours = [...FETCH_BAD_PORTS].flatMap((port) => [port - 1, port + 1]).filter((port) => !FETCH_BAD_PORTS.has(port));

    // Act
    const listed = await Promise.all([...FETCH_BAD_PORTS].map(refusedByFetch));
    const others = await Promise.all(neighbours.map(refusedByFetch));

    // Assess
    expect(listed.every(Boolean)).toBe(true);
    expect(neighbours.filter((_, index) => others[index])).toEqual([]);
  });

  it.each([
    ['http://127.0.0.1:1/v1', 1],
    ['https://judge.example.com:6000', 6000],
    ['http://127.0.0.1:8000/v1', undefined],
    ['https://judge.example.com/v1', undefined],
    ['http://127.0.0.1:80/v1', undefined],
    ['not a url', undefined],
  ])('finds the refused port of %s: %s', (url, port) => {
    expect(fetchRefusedPort(url)).toBe(port);
  });
});
