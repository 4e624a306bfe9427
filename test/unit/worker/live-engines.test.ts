import { describe, expect, it } from 'vitest';
import type { Engine, EngineRequest, EngineResult } from '../../../shared/engines/engine.js';
import { askLiveEngines } from '../../../shared/worker/live-engines.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import type { EvalCase } from '../../../shared/schema/eval-case.js';

/** An engine that answers from a script, one result per call, and counts its calls. */
function scriptedEngine(name: string, results: readonly EngineResult[]): Engine & { calls: EngineRequest[] } {
  const calls: EngineRequest[] = [];
  return {
    name,
    calls,
    async call(request) {
      calls.push(request);
      const result = results[Math.min(calls.length - 1, results.length - 1)];
      if (result === undefined) throw new Error(`engine ${name} has no scripted result`);
      return result;
    },
    async close() {},
  };
}

const hits = (...ids: string[]): EngineResult => ({
  ok: true,
  value: {
    hits: ids.map((id, index) => ({ doc_uri: id, content: `text of ${id}`, score: 10 - index })),
    response: `answer from ${ids.join(',')}`,
    latency_ms: 12,
    attempts: 1,
  },
});
const failure = (kind: 'transient' | 'permanent', message: string): EngineResult => ({ ok: false, error: { kind, message } });

function queryOnlyCase(overrides: Partial<EvalCase> = {}): EvalCase {
  return {
    request_id: 'q1',
    request: 'how do I rotate a key',
    engines: {},
    expected_retrieved_context: [{ doc_uri: 'd1', grade: 2 }],
    tags: {},
    ...overrides,
  };
}

describe('askLiveEngines', () => {
  it("puts each engine's ranked hits and response in the case, with its latency", async () => {
    const store = new MemoryStore();
    const engine = scriptedEngine('bm25@b=0.3', [hits('d1', 'd2')]);

    const step = await askLiveEngines(store, 'r-1', 'q1', queryOnlyCase(), [engine], 5_000);

    expect(step).toEqual({
      kind: 'answered',
      evalCase: queryOnlyCase({
        engines: {
          'bm25@b=0.3': {
            retrieved_context: [
              { doc_uri: 'd1', content: 'text of d1', score: 10, rank: 1 },
              { doc_uri: 'd2', content: 'text of d2', score: 9, rank: 2 },
            ],
            response: 'answer from d1,d2',
            tags: {},
          },
        },
      }),
      metrics: { 'bm25@b=0.3': { 'engine/latency_ms': 12, 'engine/attempts': 1 } },
    });
    expect(engine.calls).toEqual([{ query: 'how do I rotate a key', request_id: 'q1' }]);
  });

  it("keeps a permanent failure as that engine's error and still answers with the others", async () => {
    const store = new MemoryStore();
    const broken = scriptedEngine('broken', [failure('permanent', 'engine "broken": the service answered 404')]);
    const healthy = scriptedEngine('healthy', [hits('d1')]);

    const step = await askLiveEngines(store, 'r-1', 'q1', queryOnlyCase(), [broken, healthy], 5_000);

    expect(step.kind).toBe('answered');
    if (step.kind !== 'answered') return;
    expect(Object.keys(step.evalCase.engines)).toEqual(['healthy']);
    expect(step.metrics.broken).toEqual({ 'engine/error_message': 'engine "broken": the service answered 404' });
  });

  it('sends the case back on a transient failure, and the redelivery asks only the engine still missing', async () => {
    // Prepare: one engine answers, the other times out once, then answers
    const store = new MemoryStore();
    const steady = scriptedEngine('steady', [hits('d1')]);
    const flaky = scriptedEngine('flaky', [failure('transient', 'timed out after 100 ms (after 3 attempts)'), hits('d2')]);

    // Act: the first delivery, then the redelivery
    const first = await askLiveEngines(store, 'r-1', 'q1', queryOnlyCase(), [steady, flaky], 5_000);
    const second = await askLiveEngines(store, 'r-1', 'q1', queryOnlyCase(), [steady, flaky], 5_000);

    // Assess
    expect(first).toEqual({ kind: 'retry', error: 'engine "flaky": timed out after 100 ms (after 3 attempts)' });
    expect(second.kind).toBe('answered');
    expect(steady.calls).toHaveLength(1);
    expect(flaky.calls).toHaveLength(2);
  });

  it('lets a live engine replace a frozen output of the same name and keeps the other frozen engines', async () => {
    const frozen = { retrieved_context: [{ doc_uri: 'old', rank: 1 }], tags: {} };
    const evalCase = queryOnlyCase({ engines: { bm25: frozen, yesterday: frozen } });

    const step = await askLiveEngines(new MemoryStore(), 'r-1', 'q1', evalCase, [scriptedEngine('bm25', [hits('new')])], 5_000);

    expect(
      step.kind === 'answered'
        ? Object.fromEntries(
            Object.entries(step.evalCase.engines).map(([name, output]) => [name, output.retrieved_context.map((chunk) => chunk.doc_uri)]),
          )
        : undefined,
    ).toEqual({
      bm25: ['new'],
      yesterday: ['old'],
    });
  });
});
