import type { FailedCase, Report } from '../../schema/report.js';
import { isolatedText } from './escape.js';

/**
 * The failed cases with their last error, in full (line breaks kept), the
 * evaluated cases whose judgment by some judge ended in error (the judge, the
 * engines and the first error), and the missing cases; every one of them, in
 * report order. Each part says "none" when the run has no such case, so a
 * reader can tell "none" from "not shown".
 */
export function caseListsSection(report: Report): string {
  const wholeFailures = report.failed_cases.filter((failure) => failure.judge === undefined);
  const judgeFailures = report.failed_cases.filter((failure) => failure.judge !== undefined);
  const failed =
    wholeFailures.length === 0
      ? '<p>None.</p>'
      : '<div class="scroll"><table class="failed"><thead><tr><th scope="col">case</th><th scope="col">last error</th></tr></thead><tbody>' +
        wholeFailures
          .map(
            (failure) =>
              `<tr><td><code>${isolatedText(failure.case_id)}</code></td><td class="error">${isolatedText(failure.error)}</td></tr>`,
          )
          .join('') +
        '</tbody></table></div>';
  const missing =
    report.missing_cases.length === 0
      ? '<p>None.</p>'
      : `<ul class="missing-cases">${report.missing_cases.map((caseId) => `<li><code>${isolatedText(caseId)}</code></li>`).join('')}</ul>`;
  return (
    '<section id="cases" aria-labelledby="cases-heading"><h2 id="cases-heading">Failed and missing cases</h2>' +
    `<h3>Failed cases (${wholeFailures.length})</h3>` +
    '<p class="note">Cases that ended in the dead-letter queue, with the last error; <code>assay redrive</code> sends them through the judges again.</p>' +
    failed +
    `<h3>Cases lacking a judgment (${report.cases.judge_failed ?? 0})</h3>` +
    '<p class="note">Evaluated cases where a judge gave no usable verdict (after its retries and the repair request): their other metrics count; that judge’s metrics leave them out, so its values are over fewer cases (n=…).</p>' +
    judgeFailureTable(judgeFailures) +
    `<h3>Missing cases (${report.missing_cases.length})</h3>` +
    '<p class="note">Cases with neither a result nor a failure when the report was written (the run’s deadline passed).</p>' +
    missing +
    '</section>'
  );
}

function judgeFailureTable(failures: readonly FailedCase[]): string {
  if (failures.length === 0) return '<p>None.</p>';
  const header = ['case', 'judge', 'engines', 'first error'].map((name) => `<th scope="col">${name}</th>`).join('');
  const rows = failures.map(
    (failure) =>
      `<tr><td><code>${isolatedText(failure.case_id)}</code></td><td><code>${isolatedText(failure.judge ?? '')}</code></td>` +
      `<td>${(failure.engines ?? []).map((engine) => `<code>${isolatedText(engine)}</code>`).join(', ')}</td>` +
      `<td class="error">${isolatedText(failure.error)}</td></tr>`,
  );
  return `<div class="scroll"><table class="failed judge-failed"><thead><tr>${header}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}
