/**
 * The final table of a run: per capability, then the findings root causes first (what blocked most
 * tests leads), the tests a time budget stopped, the verdict, and where the reports are.
 */
import { shapingOptions } from '../config/index.ts';
import { normaliseMessage } from '../core/index.ts';
import {
  type RunRecord,
  type Summary,
  type SummaryFinding,
  confirmationText,
  coverageLine,
  foldFindings,
  followUpLine,
  knownText,
  warningsOf,
} from '../report/index.ts';

/** What the table says about the report files, when they were written. */
export interface TableReports {
  junit?: string;
  certificationMd?: string;
  certification?: { certified: boolean; reasons: string[] };
  allureReport?: string;
  htmlError?: string;
}

/** Shell single quotes around `s`. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The command that runs one test again: the run's seed, and a --grep that matches its scenario name
 * only (a regular expression, so escaped). Given the run's command line, with every option of it
 * that shaped the test (target, --sim-fault, --strict, profile, ...); else it says they need adding.
 */
export function rerunCommand(seed: number | undefined, test: string, argv?: readonly string[]): string {
  const scenario = test.includes(' > ') ? test.slice(test.indexOf(' > ') + 3) : test;
  const grep = scenario.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const seedFlag = seed !== undefined ? ` --seed ${seed}` : '';
  if (argv === undefined)
    return `payconnect-conformance run${seedFlag} --grep ${shellQuote(grep)} (plus this run's target and --sim-fault options)`;
  return `${runWith(argv)}${seedFlag} --grep ${shellQuote(grep)}`;
}

/** `payconnect-conformance run` with the options of `argv` that shaped its tests. */
const runWith = (argv: readonly string[]) => ['payconnect-conformance run', ...shapingOptions(argv).map(shellWord)].join(' ');

/** A word as a shell reads it: bare when it is plain, else single-quoted. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s));

/** The capability table: tests passed, failed, skipped and warnings, per capability. */
function capabilityLines(record: RunRecord): string[] {
  const caps = new Map<string, { pass: number; fail: number; skip: number; warn: number }>();
  for (const t of record.tests) {
    const c = caps.get(t.capability) ?? { pass: 0, fail: 0, skip: 0, warn: 0 };
    if (t.state === 'passed') c.pass++;
    else if (t.state === 'failed') c.fail++;
    else c.skip++;
    c.warn += warningsOf(t).length;
    caps.set(t.capability, c);
  }
  const rows = [
    ['capability', 'pass', 'fail', 'skip', 'warn'],
    ...[...caps].map(([k, c]) => [k, String(c.pass), String(c.fail), String(c.skip), String(c.warn)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  '));
}

/** One line per defect (its follow-ups folded under it), with how to run it again; then the known ones. */
function findingLines(record: RunRecord, summary: Summary, argv: readonly string[] | undefined): string[] {
  const out: string[] = [];
  const consequencesOf = (f: SummaryFinding) => {
    const blocked = summary.blocked
      .filter((b) => b.check === f.check && b.test === f.test && b.message === f.message)
      .reduce((n, b) => n + b.count, 0);
    const consequences = [
      blocked > 0 ? `blocked ${blocked} test${blocked === 1 ? '' : 's'}` : '',
      f.repeats > 0 ? `seen again ${f.repeats}x in ${f.repeatedIn.length} test${f.repeatedIn.length === 1 ? '' : 's'}` : '',
    ].filter(Boolean);
    if (f.confirmation) consequences.unshift(confirmationText(f.confirmation));
    return consequences.length > 0 ? ` [${consequences.join('; ')}]` : '';
  };
  // One defect, one line: what follows from a root is folded under it.
  const followUps = (list: readonly SummaryFinding[]) => list.map((g) => `  ${followUpLine(g)}${consequencesOf(g)}`);
  for (const { finding: f, followUps: more } of foldFindings(summary.findings)) {
    out.push(`${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${f.check} (${f.clause}) ${f.test}: ${f.message}${consequencesOf(f)}`);
    // A verdict over the whole run is only given again by the whole run.
    const whole = record.tests.some((t) => t.wholeRun && t.name === f.test);
    const wholeRun =
      argv !== undefined
        ? `${runWith(argv)}${summary.seed !== undefined ? ` --seed ${summary.seed}` : ''} (the whole run: this verdict is over all its tests)`
        : `payconnect-conformance run${summary.seed !== undefined ? ` --seed ${summary.seed}` : ''} (the ` +
          `whole run: this verdict is over all its tests; plus this run's target and --sim-fault options)`;
    if (f.severity === 'failure') out.push(`  re-run: ${whole ? wholeRun : rerunCommand(summary.seed, f.test, argv)}`);
    out.push(...followUps(more));
  }
  for (const { finding: f, followUps: more } of foldFindings(summary.known ?? [])) {
    out.push(`KNOWN ${f.check} (${f.clause}) ${f.test}: ${f.message} [${knownText(f.known!)}]`, ...followUps(more));
  }
  return out;
}

/** Baseline entries expired or resolved, an incomplete run, toolkit errors, uncovered items. */
function problemLines(record: RunRecord, summary: Summary): string[] {
  const out: string[] = [];
  for (const e of summary.baseline?.expired ?? [])
    out.push(
      `EXPIRED baseline entry ${e.entry} (${e.check}${e.ticket ? `, ${e.ticket}` : ''}) was due ${e.expires}: ` +
        `${e.reason} (fix the defect, or renew the entry's date)`,
    );
  for (const e of summary.baseline?.resolved ?? [])
    out.push(
      `RESOLVED baseline entry ${e.entry} (${e.check}${e.ticket ? `, ${e.ticket}` : ''}): nothing ` +
        `in this complete run matched it; remove it from ${summary.baseline!.file}`,
    );
  if (summary.incomplete)
    out.push(
      `INCOMPLETE ${summary.incomplete.reason}: ${summary.incomplete.tests.length} test${summary.incomplete.tests.length === 1 ? '' : 's'} ` +
        `not finished (${summary.incomplete.tests.slice(0, 5).join('; ')}${summary.incomplete.tests.length > 5 ? '; ...' : ''})`,
    );
  for (const t of record.tests.filter((x) => x.toolkitError)) {
    const bug =
      t.toolkitError!.code === 'PCC_INTERNAL'
        ? ' (this is a bug in payconnect-conformance: please report it; the stack trace is in junit.xml and the Allure report)'
        : '';
    out.push(`ERROR ${t.toolkitError!.code} in ${t.name}: ${t.toolkitError!.message.split('\n')[0]}${bug}`);
  }
  for (const u of record.unhandled) out.push(`ERROR ${u.split('\n')[0]}`);
  const required = summary.coverage?.uncovered ?? [];
  for (const u of required.slice(0, 50))
    out.push(`UNCOVERED ${u.kind} ${u.item}: ${u.reason} (--require-coverage ${summary.coverage!.required!.join(',')})`);
  if (required.length > 50) out.push(`UNCOVERED ... and ${required.length - 50} more (coverage.json lists them all)`);
  return out;
}

/** The verdict and counts, the coverage line, the harness's own health. */
function countLines(record: RunRecord, summary: Summary): string[] {
  const out: string[] = [];
  const c = summary.counts;
  const blockedTests = summary.blocked.reduce((n, b) => n + b.count, 0);
  const folded = c.folded ? ` (${c.folded} folded under their root)` : '';
  const known = c.known ? `, ${c.known} known` : '';
  const notChecked = c.notChecked ? `; ${c.notChecked} test${c.notChecked === 1 ? '' : 's'} with parts not checked` : '';
  out.push(
    '',
    `${summary.verdict.toUpperCase()}: ${c.tests} tests, ${c.passed} passed, ${c.failed} failed, ` +
      `${c.skipped} skipped${blockedTests > 0 ? ` (${blockedTests} blocked by a service defect)` : ''}; ` +
      `${c.failures} failures, ${c.warnings} warnings${folded}${known}${notChecked} ` +
      `(${(record.durationMs / 1000).toFixed(1)} s)`,
  );
  if (summary.coverage) out.push(coverageLine(summary.coverage));
  const h = summary.harness;
  if (h && (h.overloaded || h.remeasured > 0)) {
    out.push(
      `${h.overloaded ? 'HARNESS OVERLOADED' : 'harness'}: ${h.terminals === undefined ? '' : `${h.terminals} terminals, `}longest ` +
        `event-loop stall ${h.maxEventLoopDelayMs} ms, ${h.cpuSeconds} CPU-seconds; ${h.remeasured} ` +
        `wait${h.remeasured === 1 ? '' : 's'} measured again after a stall`,
    );
    for (const o of h.overloadedTests ?? [])
      out.push(`  not judged in ${o.test}: ${o.what.join('; ')} (fix: fewer --terminals, or a quieter machine)`);
  }
  return out;
}

/** One line per reason a part of a test was not checked (ids aside), with how many tests and the first. */
function notCheckedLines(summary: Summary): string[] {
  const out: string[] = [];
  const reasons = new Map<string, { what: string; tests: string[] }>();
  for (const n of summary.notChecked ?? []) {
    for (const what of n.what) {
      const key = normaliseMessage(what);
      const hit = reasons.get(key) ?? { what, tests: [] };
      hit.tests.push(n.test);
      reasons.set(key, hit);
    }
  }
  for (const r of reasons.values())
    out.push(`NOT CHECKED in ${r.tests.length} test${r.tests.length === 1 ? '' : 's'} (first: ${r.tests[0]}): ${r.what}`);
  return out;
}

/** The certification's verdict and where each report is. */
function reportLines(summaryPath: string, reports: TableReports): string[] {
  const out: string[] = [];
  if (reports.certification) {
    const cert = reports.certification;
    out.push(
      cert.certified
        ? 'certification: CERTIFIED'
        : `certification: NOT CERTIFIED (${cert.reasons.length} reason${cert.reasons.length === 1 ? '' : 's'}; first: ${cert.reasons[0]})`,
    );
  }
  out.push(`summary: ${summaryPath}`);
  if (reports.junit) out.push(`junit: ${reports.junit}`);
  if (reports.certificationMd) out.push(`certification: ${reports.certificationMd} (.html beside it)`);
  if (reports.allureReport) out.push(`allure: ${reports.allureReport}/index.html (serve it: payconnect-conformance report --open)`);
  if (reports.htmlError) out.push(`allure: not generated (${reports.htmlError.split('\n')[0]})`);
  return out;
}

/**
 * The table. `argv`: the run's command line (after `run`), for re-run lines that carry its options;
 * absent for a merge or a re-judging, whose runs' command lines are not known.
 */
export function formatFinalTable(
  record: RunRecord,
  summary: Summary,
  summaryPath: string,
  reports: TableReports = {},
  argv?: readonly string[],
): string {
  const out = [
    '',
    ...capabilityLines(record),
    '',
    ...findingLines(record, summary, argv),
    ...problemLines(record, summary),
    ...countLines(record, summary),
    ...notCheckedLines(summary),
    ...reportLines(summaryPath, reports),
  ];
  return `${out.join('\n')}\n`;
}
