/**
 * GitHub Actions output of a run: workflow-command annotations for its findings (root causes first,
 * as summary.json orders them, what follows from one said under it) and a Markdown job summary for `$GITHUB_STEP_SUMMARY`. Nothing here is
 * a secret: it is made from the summary, which is redacted.
 */
import type { Summary } from './summary.ts';
import { foldFindings, followUpLine, quoteText } from './outcome.ts';

/** GitHub shows at most 10 annotations of a kind per step; a few more are written for the log. */
export const MAX_ANNOTATIONS = 20;

const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error title=…::…` per failure and `::warning …` per warning, at most {@link MAX_ANNOTATIONS} of each. */
export function githubAnnotations(summary: Summary): string[] {
  // One defect, one annotation: what follows from a root is said under it.
  const roots = foldFindings(summary.findings);
  const lines = (severity: 'failure' | 'warning', command: 'error' | 'warning') =>
    roots
      .filter(({ finding: f }) => f.severity === severity)
      .slice(0, MAX_ANNOTATIONS)
      .map(({ finding: f, followUps }) => {
        const repeats = f.repeats > 0 ? ` (seen again ${f.repeats}x)` : '';
        const quote = quoteText(f) ? `\n${f.clause}: ${quoteText(f)}` : '';
        const follows = followUps.map((g) => `\n${followUpLine(g)}`).join('');
        return `::${command} title=${property(`${f.check} (${f.clause})`)}::${data(`${f.test}: ${f.message}${repeats}${quote}${follows}`)}`;
      });
  return [...lines('failure', 'error'), ...lines('warning', 'warning')];
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The job summary: verdict, counts, certification, and the findings, root causes first. */
export function githubJobSummary(summary: Summary, certification?: { certified: boolean; reasons: string[] }): string {
  const c = summary.counts;
  const out = [
    `## Pay-Connect conformance: ${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}`,
    '',
    `Target ${summary.target.kind === 'url' ? summary.target.baseUrl : summary.target.kind}${summary.seed !== undefined ? `, seed ${summary.seed}` : ''}: ` +
      `${c.tests} tests, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped; ${c.failures} ` +
      `failures, ${c.warnings} warnings.`,
  ];
  const cov = summary.coverage?.summary;
  if (cov) {
    const kinds = ['operations', 'statuses', 'enums', 'transitions', 'events', 'clauses', 'inputs'] as const;
    const tallies = kinds.map((k) => `${k} ${cov[k].covered}/${cov[k].total}${cov[k].excluded ? ` + ${cov[k].excluded} excluded` : ''}`);
    const uncovered = summary.coverage!.uncovered ?? [];
    const required = uncovered.length > 0 ? ` (required ${summary.coverage!.required!.join(', ')}: ${uncovered.length} never covered)` : '';
    out.push('', `Coverage: ${tallies.join(', ')}${required}.`);
  }
  if ((summary.known ?? []).length > 0) out.push('', `Known defects (baseline): ${foldFindings(summary.known!).length}.`);
  if (certification)
    out.push(
      '',
      certification.certified
        ? '**Certification: CERTIFIED**'
        : `**Certification: NOT CERTIFIED** (${cell(certification.reasons[0] ?? '')})`,
    );
  if (summary.findings.length > 0) {
    out.push('', '| | check | clause | test | finding |', '|---|---|---|---|---|');
    const roots = foldFindings(summary.findings);
    for (const { finding: f, followUps } of roots.slice(0, 50))
      out.push(
        `| ${f.severity === 'failure' ? 'FAIL' : 'WARN'} | ${cell(f.check)} | ${cell(f.clause)} | ${cell(f.test)} ` +
          `| ${[f.message, ...followUps.map(followUpLine)].map(cell).join('<br>')} |`,
      );
    if (roots.length > 50) out.push('', `… and ${roots.length - 50} more in summary.json.`);
  }
  return `${out.join('\n')}\n`;
}
