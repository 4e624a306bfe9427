import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileKernel, KERNEL_MODULE, kernelModuleText, RANK_DISCOUNTS_MODULE, rankDiscountsModuleText } from '../../scripts/build-generated.js';
import { computeRankDiscounts, rankDiscount } from '../../shared/metrics/rank-discount.js';

describe('the generated modules (npm run build:generated)', () => {
  it('hold the compilation of the TREC run kernel as its source stands: run `npm run build:generated` after changing kernels/trec-run-kernel.ts', async () => {
    // Act
    const text = kernelModuleText(await compileKernel());

    // Assess
    expect(readFileSync(KERNEL_MODULE, 'utf8')).toBe(text);
  }, 60_000);

  it('hold the first rank discounts as rank-discount.ts computes them, and rankDiscount serves them and every later one', () => {
    // Assess: the module as generated now, and each discount from it equal to the computed one, past the table's end too
    expect(readFileSync(RANK_DISCOUNTS_MODULE, 'utf8')).toBe(rankDiscountsModuleText());
    const computed = computeRankDiscounts(3000);
    for (const rank of [1, 2, 3, 1023, 1024, 1025, 2999]) expect(Object.is(rankDiscount(rank), computed[rank])).toBe(true);
  });
});
