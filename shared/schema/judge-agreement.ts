import { z } from 'zod';

const count = z.number().int().nonnegative();
const nullableStatistic = z.number().nullable();

/**
 * One judge's agreement with the human labels over the (request, document)
 * pairs both label (shared/report/judge-agreement.ts). Every null has its
 * reason in `reasons`, under the same path (`cohen_kappa`, `binary.recall`).
 */
export const judgeAgreementSchema = z.object({
  pairs: count,
  exact_agreement: nullableStatistic,
  cohen_kappa: nullableStatistic,
  weighted_kappa: nullableStatistic,
  /** Grades cut at `level`: relevant = grade >= level, the human reading as the truth. */
  binary: z.object({
    level: z.number().int(),
    kappa: nullableStatistic,
    agreement: nullableStatistic,
    precision: nullableStatistic,
    recall: nullableStatistic,
  }),
  /** confusion[human grade][judge grade] = pairs, over every grade from the lowest to the highest seen. */
  confusion: z.record(z.string(), z.record(z.string(), count)),
  reasons: z.record(z.string(), z.string()),
});
export type JudgeAgreement = z.infer<typeof judgeAgreementSchema>;
