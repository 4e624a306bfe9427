import type { SeededRandom } from '../../shared/statistics/seeded-random.js';

/** `count` distinct indices below `size`, by a partial Fisher-Yates shuffle of the seeded stream. */
export function seededSample(size: number, count: number, random: SeededRandom): number[] {
  const indices = Array.from({ length: size }, (_, index) => index);
  for (let index = 0; index < count; index++) {
    const pick = index + random.nextBelow(size - index);
    [indices[index], indices[pick]] = [indices[pick] as number, indices[index] as number];
  }
  return indices.slice(0, count);
}
