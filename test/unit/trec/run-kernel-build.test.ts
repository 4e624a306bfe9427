import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileKernel, KERNEL_MODULE, kernelModuleText } from '../../../scripts/build-kernel.js';

describe('the compiled TREC run kernel', () => {
  it('is the compilation of its source as it stands: run `npm run build:kernel` after changing kernels/trec-run-kernel.ts', async () => {
    // Act
    const text = kernelModuleText(await compileKernel());

    // Assess
    expect(readFileSync(KERNEL_MODULE, 'utf8')).toBe(text);
  }, 60_000);
});
