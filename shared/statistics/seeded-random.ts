const TWO_TO_THE_32 = 2 ** 32;

/** A reproducible stream of random numbers: the same seed gives the same stream on every machine. */
export interface SeededRandom {
  /** A uniform integer from 0 to 2^32 - 1. */
  nextUint32(): number;
  /** A uniform integer from 0 to `bound` - 1, without modulo bias; `bound` from 1 to 2^32. */
  nextBelow(bound: number): number;
  /** nextBelow with the bound checked once: for loops that draw millions of indices below one bound. */
  drawsBelow(bound: number): () => number;
  /**
   * Fills `target` with the next `target.length` draws of drawsBelow(bound),
   * in order, in one loop with the state in a local variable: the same
   * numbers, several times faster than a call per draw, for the millions of
   * indices a bootstrap draws.
   */
  fillBelow(bound: number, target: Uint32Array): void;
}

/**
 * Mulberry32: a 32-bit state advanced by a Weyl step (adding an odd constant)
 * and mixed by multiply-xorshift rounds. It passes the usual statistical test
 * batteries for streams far longer than a resampling test draws, has no
 * unseeded state, and runs in plain 32-bit integer arithmetic (Math.imul),
 * so it is fast and gives the same bits everywhere. Not for cryptography.
 *
 * `seed` is taken modulo 2^32 (so 1 and 2^32 + 1 give the same stream);
 * anything but an integer is a bug and throws.
 */
export function seededRandom(seed: number): SeededRandom {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`Expected the seed to be an integer, got ${seed}`);
  let state = seed >>> 0;
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return (mixed ^ (mixed >>> 14)) >>> 0;
  };
  const drawsBelow = (bound: number): (() => number) => {
    const limit = limitBelow(bound);
    return () => {
      for (;;) {
        const draw = nextUint32();
        if (draw < limit) return draw % bound;
      }
    };
  };
  const nextBelow = (bound: number): number => drawsBelow(bound)();
  const fillBelow = (bound: number, target: Uint32Array): void => {
    const limit = limitBelow(bound);
    // nextUint32's steps, written out so that the loop keeps the state in a register.
    let local = state;
    for (let index = 0; index < target.length; ) {
      local = (local + 0x6d2b79f5) >>> 0;
      let mixed = local;
      mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
      mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
      const draw = (mixed ^ (mixed >>> 14)) >>> 0;
      if (draw < limit) target[index++] = draw % bound;
    }
    state = local;
  };
  return { nextUint32, nextBelow, drawsBelow, fillBelow };
}

/**
 * Draws at or above the largest multiple of `bound` are redrawn, so that
 * every remainder is equally likely (at most half the draws are rejected):
 * that multiple, for a bound checked here.
 */
function limitBelow(bound: number): number {
  if (!Number.isInteger(bound) || bound < 1 || bound > TWO_TO_THE_32) {
    throw new RangeError(`Expected the bound to be an integer from 1 to 2^32, got ${bound}`);
  }
  return TWO_TO_THE_32 - (TWO_TO_THE_32 % bound);
}
