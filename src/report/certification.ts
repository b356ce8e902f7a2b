/**
 * The certification summary (`certification.md` and `.html`): what was tested, against what, with
 * which contract, the counts per capability, the findings with their clauses, the SHA-256 of
 * summary.json, and the verdict. Certified only when every spec-level suite ran and passed, in a run
 * that was not restricted by --suite and whose verdict is pass; otherwise each reason is named.
 */
import { type ConnectionInfo, type Finding, countsAsFailure } from '../core/index.ts';
import { findingLine, foldFindings, followUpLine, outcomeOf, quoteText, warningsOf } from './outcome.ts';
import type { RunRecord, TestRecord } from './records.ts';
import { type RunInfo, terminalIdText } from './run-info.ts';
import type { Summary } from './summary.ts';
import { timingChartsSvg } from './timing-charts.ts';
import { COVERAGE_KINDS, type Coverage, excludedItems, normalizeItemName, uncoveredItems } from './coverage.ts';
import { bundledClauseUrl } from './allure-messages.ts';

/** A clause's link to the spec text bundled beside the certification (spec/*.html). */
const clauseHref = bundledClauseUrl('');
const clauseLinkHtml = (clause: string) => `<a href="${esc(clauseHref(clause))}"><code>${esc(clause)}</code></a>`;
const clauseLinkMd = (clause: string) => `[${cell(clause)}](${clauseHref(clause)})`;

/** The suites a certification needs: the spec's capabilities. */
export const SPEC_LEVEL_SUITES = [
  'pairing',
  'auth',
  'config',
  'payment',
  'cancel',
  'preauth',
  'print-slip',
  'webhooks',
  'isolation',
] as const;

/** Counts of one capability. */
export interface CapabilityRow {
  capability: string;
  tests: number;
  pass: number;
  fail: number;
  skip: number;
  warn: number;
}

/** The certification of a run. */
export interface Certification {
  certified: boolean;
  /** Why it is not certified (empty when certified). */
  reasons: string[];
  rows: CapabilityRow[];
  /** SHA-256 (hex) of the summary.json the certification refers to. */
  summarySha256: string;
  terminalIds: string[];
}

/** Pass/fail/skip/warn per capability, spec-level suites first, in their order. */
export function capabilityRows(record: RunRecord): CapabilityRow[] {
  const rows = new Map<string, CapabilityRow>();
  for (const t of record.tests) {
    const r = rows.get(t.capability) ?? { capability: t.capability, tests: 0, pass: 0, fail: 0, skip: 0, warn: 0 };
    r.tests++;
    if (t.state === 'passed') r.pass++;
    else if (t.state === 'failed') r.fail++;
    else r.skip++;
    r.warn += warningsOf(t).length;
    rows.set(t.capability, r);
  }
  const order = (c: string) => {
    const i = (SPEC_LEVEL_SUITES as readonly string[]).indexOf(c);
    return i < 0 ? SPEC_LEVEL_SUITES.length : i;
  };
  return [...rows.values()].sort((a, b) => order(a.capability) - order(b.capability) || a.capability.localeCompare(b.capability));
}

function whyFailed(t: TestRecord): string {
  const first = foldFindings(t.findings.filter(countsAsFailure))[0]?.finding;
  if (first) return findingLine(first);
  if (t.toolkitError) return `toolkit error ${t.toolkitError.code}: ${t.toolkitError.message.split('\n')[0]}`;
  return t.errors[0]?.split('\n')[0] ?? 'failed';
}

/**
 * Whether a failed test failed only on what follows from roots that other failed tests report: their
 * bullet names the defect, so this test gives no bullet of its own (one defect, one line).
 */
function failedByFollowUps(t: TestRecord, record: RunRecord): boolean {
  const failures = t.findings.filter(countsAsFailure);
  return (
    failures.length > 0 &&
    failures.every(
      (f) =>
        f.followsFrom && f.followsFrom.test !== t.name && record.tests.some((o) => o.name === f.followsFrom!.test && o.state === 'failed'),
    )
  );
}

/**
 * Decides the certification of a run. `required`: the capabilities that must each have run with no
 * failure (default: the spec-level suites, {@link SPEC_LEVEL_SUITES}); a command that judges something
 * other than a service (`check-receiver`) names its own.
 */
export function certify(
  record: RunRecord,
  summary: Summary,
  info: Pick<RunInfo, 'suitesSelected' | 'checksDisabled' | 'connection' | 'certifyWithKnownDefects'>,
  summarySha256: string,
  terminalIds: string[] = [],
  required?: readonly string[],
): Certification {
  const mustRun: readonly string[] = required ?? SPEC_LEVEL_SUITES;
  // Root causes first: a verdict over the whole run, then a finding that kept other tests from going
  // on, before what they caused.
  const reasons: string[] = record.tests.filter((t) => t.wholeRun && t.state === 'failed').map((t) => `the whole run: ${whyFailed(t)}`);
  reasons.push(
    ...summary.blocked.map((b) => `root cause: ${findingLine(b)} (first in ${b.test}; blocked ${b.count} test${b.count === 1 ? '' : 's'})`),
  );
  if (summary.incomplete) reasons.push(`${summary.incomplete.reason}: ${summary.incomplete.tests.length} test(s) not finished`);
  const uncovered = summary.coverage?.uncovered ?? [];
  if (uncovered.length > 0)
    reasons.push(
      `coverage required (${summary.coverage!.required!.join(', ')}): ${uncovered.length} item${uncovered.length === 1 ? '' : 's'} never covered (${uncovered
        .slice(0, 5)
        .map((u) => u.item)
        .join('; ')}${uncovered.length > 5 ? '; ...' : ''})`,
    );
  for (const e of summary.baseline?.expired ?? [])
    reasons.push(
      `baseline entry ${e.entry} expired on ${e.expires} (${e.check}${e.ticket ? `, ${e.ticket}` : ''}): fix the defect, or renew the entry with a new date`,
    );
  const known = summary.known ?? [];
  if (known.length > 0 && !info.certifyWithKnownDefects) {
    // One defect, one bullet: what follows from a known root is named with it.
    const roots = foldFindings(known).map((k) => k.finding);
    reasons.push(
      `${roots.length} known defect${roots.length === 1 ? '' : 's'} (baseline ${summary.baseline?.file ?? ''}): ${roots
        .slice(0, 3)
        .map((f) => `[${f.check}] ${f.known!.ticket ?? f.known!.reason}`)
        .join('; ')}${roots.length > 3 ? '; ...' : ''}`,
    );
  }
  const selected = info.suitesSelected;
  const unselected = selected.length > 0 ? mustRun.filter((s) => !selected.includes(s)) : [];
  if (unselected.length > 0) reasons.push(`the run was restricted by --suite (${selected.join(', ')}): ${unselected.join(', ')} not run`);
  const disabled = info.checksDisabled ?? [];
  if (disabled.length > 0) reasons.push(`checks were disabled (${disabled.join(', ')}): what they judge was not judged`);
  if (info.connection?.verification === 'off') {
    reasons.push(
      'TLS certificates were not verified (NODE_TLS_REJECT_UNAUTHORIZED=0): nothing showed that what ' +
        'answered was the service; trust its CA with --ca-file instead',
    );
  }
  const stalled = summary.harness?.overloadedTests ?? [];
  if (stalled.length > 0)
    reasons.push(
      `the harness was overloaded: ${stalled.length} test${stalled.length === 1 ? '' : 's'} could ` +
        `not be judged (first: ${stalled[0]!.test}: ${stalled[0]!.what[0]}); run again with fewer --terminals ` +
        `or on a quieter machine`,
    );
  const unseen = summary.notChecked ?? [];
  if (unseen.length > 0)
    reasons.push(
      `${unseen.length} test${unseen.length === 1 ? '' : 's'} could not observe part of what they ` +
        `judge (first: ${unseen[0]!.test}: ${unseen[0]!.what[0]}): not checked`,
    );
  for (const suite of mustRun) {
    if (unselected.includes(suite)) continue;
    const tests = record.tests.filter((t) => t.capability === suite);
    if (tests.length === 0) {
      reasons.push(`suite ${suite} did not run (no test)`);
      continue;
    }
    const failed = tests.filter((t) => t.state === 'failed' && !t.wholeRun && !failedByFollowUps(t, record));
    for (const t of failed) reasons.push(`suite ${suite} failed: ${t.name}: ${whyFailed(t)}`);
    if (tests.every((t) => t.state === 'skipped'))
      reasons.push(
        `suite ${suite} was skipped entirely (${tests.length} test${tests.length > 1 ? 's' : ''}; e.g. ${tests[0]!.skipReason ?? 'no reason given'})`,
      );
  }
  const spec = new Set<string>(mustRun);
  for (const t of record.tests.filter((x) => x.state === 'failed' && !spec.has(x.capability)))
    reasons.push(`${t.name} failed: ${whyFailed(t)}`);
  for (const u of record.unhandled) reasons.push(`an error outside the tests: ${u.split('\n')[0]}`);
  if (reasons.length === 0 && summary.verdict !== 'pass') reasons.push(`the run's verdict is ${summary.verdict}`);
  return { certified: reasons.length === 0, reasons, rows: capabilityRows(record), summarySha256, terminalIds };
}

function connectionText(c: ConnectionInfo): string {
  const proxy = c.proxy
    ? `; proxy ${[...new Set([c.proxy.https, c.proxy.http].filter(Boolean))].join(', ')}${c.proxy.noProxy ? ` (NO_PROXY ${c.proxy.noProxy})` : ''}`
    : '';
  const clientCertificate = c.clientCertificate ? `; client certificate ${c.clientCertificate}` : '';
  return `TLS verification ${c.verification === 'on' ? 'on' : 'OFF'}; trusted CAs: ${c.trust}${clientCertificate}${proxy}`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The title of the certification (and of the Allure report's page of a run that certifies a subject). */
export const CERTIFICATION_TITLE = 'Pay-Connect conformance certification';

/** Facts a run may not have (a command that pairs no terminal, has no seed): {@link CertificationText.omit} leaves them out. */
export type OmittableFact = 'Integrator id' | 'Terminal id' | 'Seed';

/**
 * What a certification says beyond the run's records: what is certified (in the title), which
 * capabilities it requires (instead of the spec-level suites a run names), and facts to leave out.
 */
export interface CertificationText {
  /** What is certified, e.g. `webhook receiver http://…`: the title becomes `… certification: <subject>`. @default none */
  subject?: string;
  /** The capabilities that must each have run with no failure. @default {@link SPEC_LEVEL_SUITES} (listed as the run's suites) */
  required?: readonly string[];
  /** Facts the run does not have. @default [] */
  omit?: readonly OmittableFact[];
  /** Sections of other commands' results (compare's), each as markdown and as HTML, after the findings. */
  sections?: readonly { markdown: string; html: string }[];
}

/** The certification's title. */
export function certificationTitle(text: CertificationText = {}): string {
  return text.subject === undefined ? CERTIFICATION_TITLE : `${CERTIFICATION_TITLE}: ${text.subject}`;
}

function facts(info: RunInfo, cert: Certification, text: CertificationText = {}): [string, string][] {
  const omit = new Set<string>(text.omit ?? []);
  const all: [string, string][] = [
    ['Target', info.target.kind === 'sim' ? `embedded simulator (${info.target.baseUrl})` : info.target.baseUrl],
    ['Date', `${info.startedAt} – ${info.finishedAt}`],
    ['Toolkit', `${info.tool.name} ${info.tool.version} (Node ${process.versions.node})`],
    ['Contract', `${info.contract.file}, SHA-256 ${info.contract.sha256}`],
    ...Object.entries(info.labels ?? {}).map(([k, v]): [string, string] => [`Label ${k}`, v]),
    ...(info.connection ? [['Connection', connectionText(info.connection)] as [string, string]] : []),
    ['Integrator id', info.integratorId],
    ['Terminal id', terminalIdText(cert.terminalIds)],
    ['Profile / terminal mode', `${info.profile} / ${info.terminalMode}${info.strict ? ' (strict)' : ''}`],
    ['Seed', String(info.seed)],
    text.required
      ? ['Required capabilities', text.required.join(', ')]
      : ['Suites', info.suitesSelected.length > 0 ? info.suitesSelected.join(', ') : 'all'],
    ...(info.faults.length > 0
      ? [
          [
            'Simulator faults',
            info.faults.join(', ') +
              (info.faultRate !== undefined && info.faultRate < 1 ? ` (each acting at ${info.faultRate * 100} % of its decisions)` : ''),
          ] as [string, string],
        ]
      : []),
    ...((info.checksDisabled ?? []).length > 0 ? [['Checks disabled', info.checksDisabled!.join(', ')] as [string, string]] : []),
    ['summary.json SHA-256', cert.summarySha256],
    ...(info.signedBy
      ? [
          [
            'Signed',
            `by the Ed25519 key ${info.signedBy.keyid} (certificate.intoto.json: an in-toto test-result ` +
              `statement in a DSSE envelope). Verify: payconnect-conformance verify-certificate <this folder> ` +
              `--public-key <the signer's public key>`,
          ] as [string, string],
        ]
      : []),
  ];
  return all.filter(([k]) => !omit.has(k));
}

function verdictLine(cert: Certification): string {
  return cert.certified ? 'CERTIFIED' : 'NOT CERTIFIED';
}

/** The Markdown certification summary. */
export function certificationMarkdown(
  record: RunRecord,
  summary: Summary,
  info: RunInfo,
  cert: Certification,
  coverageSection?: string,
  text: CertificationText = {},
): string {
  const out = [`# ${cell(certificationTitle(text))}`, '', `**Verdict: ${verdictLine(cert)}**`, ''];
  if (!cert.certified) out.push('Not certified because:', '', ...cert.reasons.map((r) => `- ${cell(r)}`), '');
  out.push('| | |', '|---|---|', ...facts(info, cert, text).map(([k, v]) => `| ${k} | ${cell(v)} |`), '');
  out.push('## Results per capability', '', '| capability | tests | pass | fail | skip | warn |', '|---|---:|---:|---:|---:|---:|');
  for (const r of cert.rows) out.push(`| ${cell(r.capability)} | ${r.tests} | ${r.pass} | ${r.fail} | ${r.skip} | ${r.warn} |`);
  const c = summary.counts;
  out.push(`| **total** | ${c.tests} | ${c.passed} | ${c.failed} | ${c.skipped} | ${c.warnings} |`, '');
  // A certification of its own capabilities (text.required) has no spec-level suites to miss.
  const missing = text.required ? [] : SPEC_LEVEL_SUITES.filter((s) => !cert.rows.some((r) => r.capability === s));
  if (missing.length > 0) out.push(`Spec-level suites without a test in this run: ${missing.join(', ')}.`, '');
  if (coverageSection) out.push(coverageSection.trimEnd(), '');
  out.push('## Findings', '');
  if (summary.findings.length === 0) out.push('None.', '');
  else {
    out.push('| severity | clause | the documents say | check | test | message |', '|---|---|---|---|---|---|');
    for (const { finding: f, followUps } of foldFindings(summary.findings))
      out.push(
        `| ${f.severity} | ${clauseLinkMd(f.clause)} | ${cell(quoteText(f))} | ${cell(f.check)} | ${cell(f.test ?? '')} ` +
          `| ${[f.message, ...followUps.map(followUpLine)].map(cell).join('<br>')} |`,
      );
    out.push('');
  }
  const known = summary.known ?? [];
  if (known.length > 0 || summary.baseline) {
    out.push('## Known defects', '');
    if (summary.baseline)
      out.push(
        `Baseline ${summary.baseline.file}: ${summary.baseline.entries} entr${summary.baseline.entries === 1 ? 'y' : 'ies'}. ` +
          `A known defect is reported and fails nothing until its entry expires.`,
        '',
      );
    if (known.length > 0) {
      out.push('| clause | check | test | message | ticket | reason | expires |', '|---|---|---|---|---|---|---|');
      for (const { finding: f, followUps } of foldFindings(known))
        out.push(
          `| ${clauseLinkMd(f.clause)} | ${cell(f.check)} | ${cell(f.test)} | ${[f.message, ...followUps.map(followUpLine)].map(cell).join('<br>')} ` +
            `| ${cell(f.known!.ticket ?? '')} | ${cell(f.known!.reason)} | ${cell(f.known!.expires)} |`,
        );
      out.push('');
    }
    for (const e of summary.baseline?.expired ?? [])
      out.push(
        `- EXPIRED entry ${e.entry} (${cell(e.check)}${e.ticket ? `, ${cell(e.ticket)}` : ''}), due ${e.expires}: ${cell(e.reason)}`,
      );
    for (const e of summary.baseline?.resolved ?? [])
      out.push(
        `- RESOLVED entry ${e.entry} (${cell(e.check)}${e.ticket ? `, ${cell(e.ticket)}` : ''}): nothing ` +
          `in this complete run matched it; remove it from the baseline`,
      );
    if ((summary.baseline?.expired.length ?? 0) + (summary.baseline?.resolved.length ?? 0) > 0) out.push('');
  }
  for (const s of text.sections ?? []) out.push(s.markdown.trimEnd(), '');
  if (summary.blocked.length > 0) {
    out.push('## Blocked by a service defect', '', '| finding | first seen in | tests blocked |', '|---|---|---|');
    for (const b of summary.blocked)
      out.push(
        `| [${cell(b.check)}] (${clauseLinkMd(b.clause)}) ${cell(b.message)} | ${cell(b.test)} | ${b.count}: ` +
          `${cell(b.tests.join('; '))}${b.count > b.tests.length ? '; ...' : ''} |`,
      );
    out.push('');
  }
  if ((summary.notChecked ?? []).length > 0) {
    out.push(
      '## Not checked',
      '',
      'These tests ran but could not observe part of what they judge: that part neither passed nor failed.',
      '',
      '| test | not checked |',
      '|---|---|',
    );
    for (const n of summary.notChecked!) out.push(`| ${cell(n.test)} | ${cell(n.what.join('; '))} |`);
    out.push('');
  }
  const errors = record.tests.filter((t) => t.state === 'failed' && outcomeOf(t) === 'toolkit-error');
  if (errors.length + record.unhandled.length > 0) {
    out.push('## Toolkit errors', '');
    for (const t of errors) out.push(`- ${cell(t.name)}: ${cell(whyFailed(t))}`);
    for (const u of record.unhandled) out.push(`- ${cell(u.split('\n')[0] ?? '')}`);
    out.push('');
  }
  out.push(`Generated by ${info.tool.name} ${info.tool.version}. The counts and findings are those of summary.json (SHA-256 above).`, '');
  return out.join('\n');
}

function coverageHtml(c: Coverage): string {
  const s = c.summary;
  const rows = COVERAGE_KINDS.flatMap((k) => [
    [k, s[k]] as const,
    ...(k === 'statuses' ? [['a documented 2xx, by operation', s.statuses2xx] as const] : []),
  ])
    .map(
      ([k, t]) =>
        `<tr><td>${esc(k)}</td><td>${t.covered}</td><td>${t.excluded ?? 0}</td><td>${t.total}</td><td ` +
        `class="${t.percent < 100 ? 'warn' : ''}">${t.percent} %</td></tr>`,
    )
    .join('');
  const excluded = excludedItems(c);
  const excludedList =
    excluded.length === 0
      ? ''
      : `<details><summary>Excluded from the gate (${excluded.length})</summary><ul>${excluded.map(excludedItemHtml).join('')}</ul></details>`;
  const missing = uncoveredItems(c);
  const list =
    missing.length === 0
      ? `<p>Every ${excluded.length > 0 ? 'other ' : ''}item was covered.</p>`
      : `<details><summary>Never seen (${missing.length})</summary><ul>${missing
          .map((u) => `<li><b>${esc(u.kind)}</b> <code>${esc(u.item)}</code>: ${esc(u.reason)}</li>`)
          .join('')}</ul></details>`;
  return `<h2>Coverage</h2><table><tr><th>kind</th><th>covered</th><th>excluded</th><th>total</th><th>percent</th></tr>${rows}</table>${excludedList}${list}`;
}

/** An item excluded from the coverage gate, with the exclusion that names it when it is not the item itself. */
function excludedItemHtml(e: ReturnType<typeof excludedItems>[number]): string {
  const by = e.by === 'contract' || normalizeItemName(e.by) === e.item ? '' : ` (by <code>${esc(e.by)}</code>)`;
  return `<li><b>${esc(e.kind)}</b> <code>${esc(e.item)}</code>${by}: ` + `${esc(e.excludedBecause)}</li>`;
}

/** The header row of the known defects' table. */
const KNOWN_HEAD = '<tr><th>clause</th><th>check</th><th>test</th><th>message</th><th>ticket</th><th>reason</th><th>expires</th></tr>';

function knownHtml(summary: Summary): string {
  const known = summary.known ?? [];
  const b = summary.baseline;
  if (known.length === 0 && !b) return '';
  const rows = foldFindings(known)
    .map(
      ({ finding: f, followUps }) =>
        `<tr class="warn"><td>${clauseLinkHtml(f.clause)}</td><td><code>${esc(f.check)}</code></td><td>${esc(f.test)}</td>` +
        `<td>${messageHtml(f, followUps)}</td><td>${esc(f.known!.ticket ?? '')}</td><td>${esc(f.known!.reason)}</td><td>${esc(f.known!.expires)}</td></tr>`,
    )
    .join('');
  const items = [
    ...(b?.expired ?? []).map(
      (e) =>
        `<li class="bad">EXPIRED entry ${e.entry} (${esc(e.check)}${e.ticket ? `, ${esc(e.ticket)}` : ''}), due ${esc(e.expires)}: ${esc(e.reason)}</li>`,
    ),
    ...(b?.resolved ?? []).map(
      (e) =>
        `<li>RESOLVED entry ${e.entry} (${esc(e.check)}${e.ticket ? `, ${esc(e.ticket)}` : ''}): nothing ` +
        `in this complete run matched it; remove it from the baseline</li>`,
    ),
  ];
  const baseline = b
    ? `<p>Baseline ${esc(b.file)}: ${b.entries} entr${b.entries === 1 ? 'y' : 'ies'}. A known defect ` +
      `is reported and fails nothing until its entry expires.</p>`
    : '';
  return `<h2>Known defects</h2>${baseline}${rows ? `<table>${KNOWN_HEAD}${rows}</table>` : ''}${items.length > 0 ? `<ul>${items.join('')}</ul>` : ''}`;
}

/** A finding's message, with what follows from it folded under it (one defect, one row). */
const messageHtml = (f: Finding, followUps: readonly Finding[]) =>
  `${esc(f.message)}${followUps.length > 0 ? `<ul class="follow">${followUps.map((g) => `<li>${esc(followUpLine(g))}</li>`).join('')}</ul>` : ''}`;

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The certification page's style of follow-ups, verdicts and marked rows. */
const MARK_STYLE =
  '.follow{margin:.3em 0 0;padding-left:1.2em;font-size:.92em}.ok{background:#dff5e1;color:#135d1e}' +
  '.no{background:#fde2e1;color:#8a1c14}.bad{color:#8a1c14}.warn{color:#8a5a00}';

/** The HTML certification summary (one self-contained page, no script, no remote resource). */
export function certificationHtml(
  record: RunRecord,
  summary: Summary,
  info: RunInfo,
  cert: Certification,
  coverage?: Coverage,
  text: CertificationText = {},
): string {
  const c = summary.counts;
  const title = esc(certificationTitle(text));
  const reasons = cert.certified ? '' : `<p>Not certified because:</p><ul>${cert.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`;
  const factRows = facts(info, cert, text)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
    .join('');
  const capRows = cert.rows
    .map(
      (r) =>
        `<tr><td>${esc(r.capability)}</td><td>${r.tests}</td><td>${r.pass}</td><td class="${r.fail ? 'bad' : ''}">${r.fail}</td><td>${r.skip}</td><td ` +
        `class="${r.warn ? 'warn' : ''}">${r.warn}</td></tr>`,
    )
    .join('');
  const findingRows = foldFindings(summary.findings)
    .map(
      ({ finding: f, followUps }) =>
        `<tr class="${f.severity === 'failure' ? 'bad' : 'warn'}"><td>${esc(f.severity)}</td><td>${clauseLinkHtml(f.clause)}</td>` +
        `<td>${esc(quoteText(f))}</td><td><code>${esc(f.check)}</code></td><td>${esc(f.test ?? '')}</td><td>${messageHtml(f, followUps)}</td></tr>`,
    )
    .join('');
  const errors = [
    ...record.tests.filter((t) => t.state === 'failed' && outcomeOf(t) === 'toolkit-error').map((t) => `${t.name}: ${whyFailed(t)}`),
    ...record.unhandled.map((u) => u.split('\n')[0] ?? ''),
  ];
  const timing = summary.timing
    ? `<h2>Timing</h2><p>How long the service took (summary.json's <code>timing</code> has every ` +
      `figure and the samples).</p><div class="charts">${timingChartsSvg(summary.timing)}</div>`
    : '';
  const findings =
    summary.findings.length === 0
      ? '<p>None.</p>'
      : `<table><tr><th>severity</th><th>clause</th><th>the documents say</th><th>check</th><th>test</th><th>message</th></tr>${findingRows}</table>`;
  const notChecked =
    (summary.notChecked ?? []).length > 0
      ? `<h2>Not checked</h2><p>These tests ran but could not observe part of what they judge: that ` +
        `part neither passed nor failed.</p><table><tr><th>test</th><th>not checked</th></tr>` +
        summary.notChecked!.map((n) => `<tr class="warn"><td>${esc(n.test)}</td><td>${esc(n.what.join('; '))}</td></tr>`).join('') +
        '</table>'
      : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4}.verdict{font-size:1.4em;font-weight:bold;padding:.5em 1em;display:inline-block;border-radius:4px}
.charts{display:flex;flex-wrap:wrap;gap:1em}.charts figure{margin:0}
${MARK_STYLE}
</style></head><body>
<h1>${title}</h1>
<p class="verdict ${cert.certified ? 'ok' : 'no'}">${verdictLine(cert)}</p>
${reasons}
<table>${factRows}</table>
<h2>Results per capability</h2>
<table><tr><th>capability</th><th>tests</th><th>pass</th><th>fail</th><th>skip</th><th>warn</th></tr>${capRows}
<tr><th>total</th><th>${c.tests}</th><th>${c.passed}</th><th>${c.failed}</th><th>${c.skipped}</th><th>${c.warnings}</th></tr></table>
${coverage ? coverageHtml(coverage) : ''}
${timing}
<h2>Findings</h2>
${findings}
${knownHtml(summary)}
${(text.sections ?? []).map((s) => s.html).join('\n')}
${notChecked}
${errors.length > 0 ? `<h2>Toolkit errors</h2><ul>${errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}
<p>Generated by ${esc(info.tool.name)} ${esc(info.tool.version)}. The counts and findings are those of summary.json (SHA-256 above).</p>
</body></html>
`;
}
