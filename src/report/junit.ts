/**
 * `junit.xml` for CI systems: one testsuite per capability, one testcase per test. Its counts are
 * summary.json's: tests = tests, skipped = skipped, failures + errors = failed (a broken requirement is
 * a <failure>, a toolkit error an <error>). Findings are the failure messages; warnings are
 * properties and system-out of their test case.
 */
import type { Finding } from '../core/index.ts';
import {
  type Folded,
  confirmationText,
  failuresOf,
  findingLine,
  foldFindings,
  followUpLine,
  knownOf,
  knownText,
  outcomeOf,
  quoteText,
  warningsOf,
} from './outcome.ts';
import type { RunRecord, TestRecord } from './records.ts';
import type { RunInfo } from './run-info.ts';
import type { Summary } from './summary.ts';

/** Text made safe for XML 1.0 (invalid characters dropped, markup escaped). */
export function xmlEscape(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attr = (name: string, value: string | number) => `${name}="${xmlEscape(String(value))}"`;
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The evidence, with its exchange reduced to the request line, the status and the body. */
function compactEvidence(evidence: unknown): string {
  let e = evidence;
  if (e && typeof e === 'object' && 'exchange' in e) {
    const { exchange, ...rest } = e as {
      exchange: { request?: { method?: string; path?: string }; response?: { status?: number; body?: unknown } };
    };
    e = {
      ...rest,
      exchange: {
        request: `${exchange?.request?.method ?? '?'} ${exchange?.request?.path ?? '?'}`,
        status: exchange?.response?.status ?? null,
        body: exchange?.response?.body ?? null,
      },
    };
  }
  const text = JSON.stringify(e) ?? '';
  return text.length > 2000 ? `${text.slice(0, 2000)}… (cut; the Allure report has it whole)` : text;
}

function detail(f: Finding): string {
  const evidence = f.evidence === undefined || f.evidence === null ? '' : `\n  evidence: ${compactEvidence(f.evidence)}`;
  const quote = quoteText(f) ? `\n  quote (${f.clause}): ${quoteText(f)}` : '';
  return `${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${findingLine(f)}${f.confirmation ? ` (${confirmationText(f.confirmation)})` : ''}${quote}${evidence}`;
}

/** A finding's detail with what follows from it (one defect, one entry): each follow-up one line under it. */
function foldedDetail({ finding, followUps }: Folded): string {
  return [detail(finding), ...followUps.map((g) => `  ${followUpLine(g)}`)].join('\n');
}

type Props = ReadonlyArray<readonly [string, string]>;

function testcase(t: TestRecord): string {
  // What follows from a root of this test is shown under the root, never as a finding of its own.
  const folded = foldFindings([...failuresOf(t), ...warningsOf(t)]);
  const followUps = folded.flatMap((r) => r.followUps);
  const ownWarnings = folded.filter((r) => r.finding.severity === 'warning');
  const open = `    <testcase ${attr('classname', t.capability)} ${attr('name', t.name)} ${attr('time', seconds(t.durationMs))} ${attr('file', t.file)}>`;
  const body: string[] = [];
  const props = [
    `        <property ${attr('name', 'clause')} ${attr('value', t.clause)}/>`,
    `        <property ${attr('name', 'outcome')} ${attr('value', outcomeOf(t))}/>`,
    ...Object.entries(t.parameters).map(([k, v]) => `        <property ${attr('name', `parameter.${k}`)} ${attr('value', v)}/>`),
    ...ownWarnings.map(({ finding: f }) => `        <property ${attr('name', 'warning')} ${attr('value', findingLine(f))}/>`),
    ...followUps.map((f) => {
      const value = `${findingLine(f)} (follows from [${f.followsFrom!.check}]: ${f.followsFrom!.because})`;
      return `        <property ${attr('name', 'follow-up')} ${attr('value', value)}/>`;
    }),
    ...(t.notChecked ?? []).map((n) => `        <property ${attr('name', 'not-checked')} ${attr('value', n)}/>`),
  ];
  body.push('      <properties>', ...props, '      </properties>');
  const outcome = outcomeOf(t);
  if (t.state === 'failed' && outcome === 'toolkit-error') {
    const e = t.toolkitError ?? { code: 'PCC_INTERNAL', message: t.errors.join('\n') || 'the test failed without a finding' };
    const text = xmlEscape([e.message, ...(e.hint ? [`fix: ${e.hint}`] : []), ...t.errors].join('\n'));
    body.push(`      <error ${attr('message', `${e.code}: ${e.message.split('\n')[0]}`)} ${attr('type', e.code)}>${text}</error>`);
  } else if (t.state === 'failed') {
    const failures = folded.filter((r) => r.finding.severity === 'failure');
    const first = failures[0]?.finding;
    body.push(
      `      <failure ${attr('message', first ? findingLine(first) : (t.errors[0] ?? 'failed'))} ` +
        `${attr('type', outcome)}>${xmlEscape(failures.map(foldedDetail).join('\n') || t.errors.join('\n'))}</failure>`,
    );
  } else if (t.state === 'skipped') {
    body.push(`      <skipped ${attr('message', t.skipReason ?? 'skipped')}/>`);
  }
  const known = foldFindings(knownOf(t)).flatMap(({ finding: f, followUps: more }) => [
    `KNOWN ${findingLine(f)}: ${knownText(f.known!)}`,
    ...more.map((g) => `  ${followUpLine(g)}`),
  ]);
  const out = [...known, ...ownWarnings.map(foldedDetail), ...(t.notChecked ?? []).map((n) => `NOT CHECKED ${n}`)];
  if (out.length > 0) body.push(`      <system-out>${xmlEscape(out.join('\n'))}</system-out>`);
  return [open, ...body, '    </testcase>'].join('\n');
}

function counts(tests: TestRecord[]) {
  const errors = tests.filter((t) => t.state === 'failed' && outcomeOf(t) === 'toolkit-error').length;
  const failed = tests.filter((t) => t.state === 'failed').length;
  return {
    tests: tests.length,
    failures: failed - errors,
    errors,
    skipped: tests.filter((t) => t.state === 'skipped').length,
    time: tests.reduce((s, t) => s + t.durationMs, 0),
  };
}

/** The JUnit XML of a run. */
export function buildJunitXml(record: RunRecord, summary: Summary, info: Pick<RunInfo, 'target' | 'tool' | 'contract' | 'labels'>): string {
  const byCapability = new Map<string, TestRecord[]>();
  for (const t of record.tests) byCapability.set(t.capability, [...(byCapability.get(t.capability) ?? []), t]);
  const all = counts(record.tests);
  const runProps: Props = [
    ['tool', `${info.tool.name} ${info.tool.version}`],
    ['target', info.target.kind === 'url' ? info.target.baseUrl : info.target.kind],
    ['contract.sha256', info.contract.sha256],
    ['verdict', summary.verdict],
    ['findings.failures', String(summary.counts.failures)],
    ['findings.warnings', String(summary.counts.warnings)],
    ...Object.entries(info.labels ?? {}).map(([k, v]): [string, string] => [`label.${k}`, v]),
  ];
  const properties = [
    '    <properties>',
    ...runProps.map(([k, v]) => `      <property ${attr('name', k)} ${attr('value', v)}/>`),
    '    </properties>',
  ];
  const suites = [...byCapability].map(([capability, tests]) => {
    const c = counts(tests);
    return [
      `  <testsuite ${attr('name', capability)} ${attr('tests', c.tests)} ${attr('failures', c.failures)} ` +
        `${attr('errors', c.errors)} ${attr('skipped', c.skipped)} ${attr('time', seconds(c.time))} ` +
        `${attr('timestamp', record.startedAt)}>`,
      ...properties,
      ...tests.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const unhandled =
    record.unhandled.length > 0
      ? [
          `  <testsuite ${attr('name', '(run)')} tests="0" failures="0" errors="0" skipped="0" time="0">`,
          `    <system-err>${xmlEscape(record.unhandled.join('\n\n'))}</system-err>`,
          '  </testsuite>',
        ]
      : [];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attr('name', 'payconnect-conformance')} ${attr('tests', all.tests)} ${attr('failures', all.failures)} ` +
      `${attr('errors', all.errors)} ${attr('skipped', all.skipped)} ${attr('time', seconds(record.durationMs))} ` +
      `${attr('timestamp', record.startedAt)}>`,
    ...suites,
    ...unhandled,
    '</testsuites>',
    '',
  ].join('\n');
}
