import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileKernel,
  KERNEL_MODULE,
  kernelModuleText,
  POWERS_OF_FIVE_SOURCE,
  powersOfFive,
  powersOfFiveText,
  RANK_DISCOUNTS_MODULE,
  rankDiscountsModuleText,
  SMALLEST_POWER_OF_TEN,
} from '../../scripts/build-generated.js';
import { computeRankDiscounts, rankDiscount } from '../../shared/metrics/rank-discount.js';

describe('the generated modules (npm run build:generated)', () => {
  it('hold the compilation of the TREC run kernel as its source stands: run `npm run build:generated` after changing kernels/trec-run-kernel.ts', async () => {
    // Act
    const text = kernelModuleText(await compileKernel());

    // Assess
    expect(readFileSync(KERNEL_MODULE, 'utf8')).toBe(text);
  }, 60_000);

  it("hold the kernel's table of powers of five as powersOfFive computes it, the entries fast_float's table has", () => {
    // Assess: the AssemblyScript source as generated now, and entries as the fast_float library lists them
    expect(readFileSync(POWERS_OF_FIVE_SOURCE, 'utf8')).toBe(powersOfFiveText());
    const words = powersOfFive();
    const entry = (q: number): [bigint, bigint] => [
      words[2 * (q - SMALLEST_POWER_OF_TEN)] as bigint,
      words[2 * (q - SMALLEST_POWER_OF_TEN) + 1] as bigint,
    ];
    expect(words.length).toBe(2 * 651);
    expect(entry(-342)).toEqual([0xeef453d6923bd65an, 0x113faa2906a13b3fn]);
    expect(entry(-1)).toEqual([0xccccccccccccccccn, 0xcccccccccccccccdn]);
    expect(entry(0)).toEqual([0x8000000000000000n, 0n]);
    expect(entry(308)).toEqual([0x8e679c2f5e44ff8fn, 0x570f09eaa7ea7648n]);
  });

  it('hold the first rank discounts as rank-discount.ts computes them, and rankDiscount serves them and every later one', () => {
    // Assess: the module as generated now, and each discount from it equal to the computed one, past the table's end too
    expect(readFileSync(RANK_DISCOUNTS_MODULE, 'utf8')).toBe(rankDiscountsModuleText());
    const computed = computeRankDiscounts(3000);
    for (const rank of [1, 2, 3, 1023, 1024, 1025, 2999]) expect(Object.is(rankDiscount(rank), computed[rank])).toBe(true);
  });
});
