import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { withoutOwnRunChecks } from '../../../cli/run/own-run-checks.js';

function eventOf(...bodies: string[]): SQSEvent {
  return { Records: bodies.map((body, index) => ({ messageId: String(index), body }) as SQSRecord) };
}

const check = (runId: string) => JSON.stringify({ kind: 'check', run_id: runId, attempt: 0 });
const continueIngest = JSON.stringify({ kind: 'continue-ingest', run_id: 'r-own', messages_key: 'runs/r-own/pending/0.jsonl', finish: { rows: 1, cases: 1, check_delay_seconds: 1 } });

describe('withoutOwnRunChecks', () => {
  it.each([
    { name: 'a check of the driven run', bodies: [check('r-own')], reaching: [] },
    { name: 'a check of another run', bodies: [check('r-other')], reaching: [check('r-other')] },
    { name: 'a mixed batch', bodies: [check('r-other'), check('r-own'), continueIngest], reaching: [check('r-other'), continueIngest] },
    { name: 'a body that is not JSON', bodies: ['{not json'], reaching: ['{not json'] },
  ])('passes on everything but the checks of the driven run: $name', async ({ bodies, reaching }) => {
    // Prepare
    const seen: string[][] = [];
    const handler = withoutOwnRunChecks('r-own', async (event) => {
      seen.push(event.Records.map((record) => record.body));
      return event.Records.map((record) => record.messageId);
    });

    // Act
    const outcomes = await handler(eventOf(...bodies));

    // Assess
    expect(seen).toEqual(reaching.length === 0 ? [] : [reaching]);
    expect(outcomes).toHaveLength(reaching.length);
  });
});
