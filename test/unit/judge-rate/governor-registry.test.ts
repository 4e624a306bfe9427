import { afterEach, describe, expect, it } from 'vitest';
import { forgetGovernors, sharedGovernor } from '../../../shared/judge-rate/governor-registry.js';

afterEach(() => {
  forgetGovernors();
});

describe('sharedGovernor', () => {
  it('gives every caller of one server and model the same governor, and another server its own', () => {
    // Act
    const first = sharedGovernor('http://127.0.0.1:9/v1 judge-model', { maxInFlight: 4, maxHoldMs: 1_000 });
    const again = sharedGovernor('http://127.0.0.1:9/v1 judge-model', { maxInFlight: 8, maxHoldMs: 1_000 });
    const other = sharedGovernor('http://127.0.0.1:10/v1 judge-model', { maxInFlight: 4, maxHoldMs: 1_000 });

    // Assess
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('starts a new governor for a server once the governors are forgotten, as the next job of a process does', () => {
    // Prepare
    const before = sharedGovernor('http://127.0.0.1:9/v1 judge-model', { maxInFlight: 4, maxHoldMs: 1_000 });

    // Act
    forgetGovernors();
    const after = sharedGovernor('http://127.0.0.1:9/v1 judge-model', { maxInFlight: 4, maxHoldMs: 1_000 });

    // Assess
    expect(after).not.toBe(before);
  });
});
