import type { Report } from '../../schema/report.js';
import { isolatedText } from './escape.js';

/**
 * The failed cases with their last error, in full (line breaks kept), and
 * the missing cases; every one of them, in report order. Either part says
 * "none" when the run has no such case, so a reader can tell "none" from
 * "not shown".
 */
export function caseListsSection(report: Report): string {
  const failed =
    report.failed_cases.length === 0
      ? '<p>None.</p>'
      : '<div class="scroll"><table class="failed"><thead><tr><th scope="col">case</th><th scope="col">last error</th></tr></thead><tbody>' +
        report.failed_cases
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
    `<h3>Failed cases (${report.failed_cases.length})</h3>` +
    '<p class="note">Cases that ended in the dead-letter queue, with the last error; <code>assay redrive</code> sends them through the judges again.</p>' +
    failed +
    `<h3>Missing cases (${report.missing_cases.length})</h3>` +
    '<p class="note">Cases with neither a result nor a failure when the report was written (the run’s deadline passed).</p>' +
    missing +
    '</section>'
  );
}
