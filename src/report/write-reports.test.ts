/** The one report writer: every file from a record alone, Allure named as vitest's tests were, secrets scrubbed at write. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import type { WarmAllure } from './allure-html.ts';
import type { RunRecord } from './records.ts';
import type { WarmCharts } from './timing-charts.ts';
import { buildSummary } from './summary.ts';
import { finding, reportsDirs, runInfo, runRecord, testRecord } from './testing.ts';
import { reportName, writeReports } from './write-reports.ts';

const reportsDir = reportsDirs('pcc-write-reports-');

const ROOT = '/pkg';
const SECRET = 'cs-0123456789abcdef0123';
const exchange: Exchange = {
  seq: 1,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:1/v1/pay-connect/pair/',
    path: '/v1/pay-connect/pair/',
    headers: {},
    body: { otp: '123456' },
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { terminal_id: '4242', client_secret: SECRET },
    rawBody: `{"terminal_id":"4242","client_secret":"${SECRET}"}`,
  },
  startedAt: '2026-01-02T03:04:06.000Z',
  durationMs: 3,
};
const failed = testRecord({
  capability: 'payment',
  scenario: 'generate and converge: tip',
  state: 'failed',
  suitePath: ['payment'],
  host: 'ci-7',
  harness: { worker: 3, maxEventLoopDelayMs: 1, cpuSeconds: 1 },
  exchanges: [exchange],
  errors: [`[invariant.total-amount] (spec#transaction-print-slip) total_amount 101 != amount 100 + tip_amount 0 (Bearer ${SECRET})`],
  trace: `Error: boom\n    at scenario.ts:1:1 Bearer ${SECRET}`,
  findings: [finding()],
});
const passed = testRecord({ capability: 'config', scenario: 'config read', suitePath: [], file: '/pkg/suites/config/config.suite.ts' });

async function write(record: RunRecord, extra: Partial<Parameters<typeof writeReports>[4]> = {}) {
  const dir = await reportsDir();
  const info = runInfo({ labels: { firmware: '4.2.1', seed: 'lab' } });
  const summary = buildSummary(record, info.tool, info.target, {
    seed: info.seed,
    startedAt: info.startedAt,
    finishedAt: info.finishedAt,
    labels: info.labels,
  });
  const result = await writeReports(dir, record, summary, info, { html: false, root: ROOT, stderr: () => {}, ...extra });
  const results = readdirSync(result.reports.allureResults)
    .filter((f) => f.endsWith('-result.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(join(result.reports.allureResults, f), 'utf8')) as Record<string, unknown> & {
          labels: { name: string; value: string }[];
          statusDetails: { message?: string; trace?: string };
        },
    );
  return { dir, result, results };
}

describe('writeReports', () => {
  it('writes summary, coverage, JUnit, the certification and Allure results from the record alone', async () => {
    const { dir, result, results } = await write(runRecord([failed, passed]));
    expect(result.exitCode).toBe(1);
    for (const f of ['summary.json', 'coverage.json', 'junit.xml', 'certification.md', 'certification.html', 'allure-results'])
      expect(existsSync(join(dir, f)), f).toBe(true);
    expect(results).toHaveLength(2);
    const env = readFileSync(join(dir, 'allure-results', 'environment.properties'), 'utf8');
    expect(env).toMatch(/^terminal\.id=4242$/m);
    expect(env).toMatch(/^coverage=operations \d+\/\d+/m);
    expect(env).toMatch(/^firmware=4\.2\.1$/m);
    // A label named like a fact of the run keeps both.
    expect(env).toMatch(/^seed=42$/m);
    expect(env).toMatch(/^label\.seed=lab$/m);
    expect(JSON.parse(readFileSync(join(dir, 'allure-results', 'categories.json'), 'utf8'))[0].name).toBe('Spec failures');
  });

  it('names a vitest test as allure-vitest did: path relative to the root, describe blocks, suite, package, host and worker labels, the trace', async () => {
    const { results } = await write(runRecord([failed, passed]));
    const r = results.find((x) => x.name === 'generate and converge: tip')!;
    expect(r.fullName).toBe('suites/payment/payment.suite.ts#payment generate and converge: tip');
    expect(r.titlePath).toEqual(['suites', 'payment', 'payment.suite.ts', 'payment']);
    expect(r.historyId).toBe(`${r.testCaseId}:d41d8cd98f00b204e9800998ecf8427e`);
    expect(r.status).toBe('failed');
    const labels = Object.fromEntries(r.labels.map((l) => [l.name, l.value]));
    expect(labels).toMatchObject({
      framework: 'vitest',
      language: 'javascript',
      parentSuite: 'payment',
      host: 'ci-7',
      thread: 'vitest-worker-3',
      package: 'suites.payment.payment.suite.ts',
      epic: 'payment',
      conformance: 'spec-failure',
    });
    expect(r.statusDetails.message).toMatch(/^\[invariant\.total-amount\]/);
    // The service's finding is traced to its evidence, not to a stack in the toolkit's files.
    expect(r.statusDetails.trace).toMatch(/^FAIL \[invariant\.total-amount\]/);
    expect(r.statusDetails.trace).toContain('evidence: ');
    expect(r.statusDetails.trace).not.toMatch(/Error: boom|\.ts:\d+/);
    const top = results.find((x) => x.name === 'config read')!;
    expect(top.fullName).toBe('suites/config/config.suite.ts#config read');
    expect(top.labels.find((l) => l.name === 'parentSuite')).toBeUndefined();
  });

  it('scrubs secrets at write, whatever the record holds, and hands the scrubbed record to afterFiles', async () => {
    let seen: RunRecord | undefined;
    const { dir } = await write(runRecord([failed]), { afterFiles: (r) => void (seen = r) });
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]));
    const all = files(dir);
    expect(all.length).toBeGreaterThan(8);
    for (const f of all) expect(readFileSync(f, 'utf8'), f).not.toContain(SECRET);
    expect(JSON.stringify(seen)).not.toContain(SECRET);
    expect(JSON.stringify(seen)).toContain('[REDACTED]');
  });

  it('ends the chart drawer once it has drawn, before the file reports and afterFiles (the peak of memory)', async () => {
    const calls: string[] = [];
    const charts: WarmCharts = {
      draw: async () => void calls.push('draw'),
      close: async () => void calls.push('close'),
    };
    await write(runRecord([passed]), { charts, afterFiles: () => void calls.push('afterFiles') });
    expect(calls).toEqual(['draw', 'close', 'afterFiles']);
  });

  it('renders the HTML report while the file reports are written and afterFiles runs, and waits for all', async () => {
    // A generator that writes an index.html where it is told, and says when it was given its work.
    let rendering = false;
    let summaryWhenRendering: boolean | undefined;
    const warm: WarmAllure = {
      run({ cwd, config }) {
        rendering = true;
        const out = String(config.output);
        // Its staging folder is in the reports folder.
        summaryWhenRendering = existsSync(join(dirname(out), 'summary.json'));
        const child = spawn(
          process.execPath,
          ['-e', `require('fs').writeFileSync(${JSON.stringify(join(out, 'index.html'))}, '<html></html>')`],
          { cwd },
        );
        return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, output: '' }))) };
      },
      close: async () => {},
    };
    let renderingDuringAfterFiles: boolean | undefined;
    const { dir, result } = await write(runRecord([passed]), {
      html: true,
      warm,
      afterFiles: async () => {
        renderingDuringAfterFiles = rendering;
        await new Promise((r) => setTimeout(r, 20));
      },
    });
    expect(summaryWhenRendering).toBe(false);
    expect(renderingDuringAfterFiles).toBe(true);
    expect(existsSync(join(dir, 'summary.json'))).toBe(true);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'allure-report', 'index.html'), 'utf8')).toBe('<html></html>');
  });

  it('without coverage (a run that does not exercise the service) writes no coverage.json', async () => {
    const { dir, result } = await write(runRecord([passed]), { coverage: false, certification: { subject: 'x', required: ['config'] } });
    expect(existsSync(join(dir, 'coverage.json'))).toBe(false);
    expect(result.reports.coverage).toBeUndefined();
    expect(readFileSync(join(dir, 'allure-results', 'environment.properties'), 'utf8')).not.toMatch(/^coverage=/m);
  });

  it("lists the run's errors outside its tests as Allure globals, none when there are none", async () => {
    const { dir } = await write({
      ...runRecord([passed], ['suites/x.suite.ts: SyntaxError: Unexpected token']),
      suiteErrors: [`suites/y.suite.ts > y: Error: beforeAll failed Bearer ${SECRET}`],
    });
    const globals = readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-globals.json'));
    expect(globals).toHaveLength(1);
    const { errors } = JSON.parse(readFileSync(join(dir, 'allure-results', globals[0]!), 'utf8')) as {
      errors: { message: string; trace: string }[];
    };
    expect(errors.map((e) => e.message)).toEqual([
      'suites/x.suite.ts: SyntaxError: Unexpected token',
      'suites/y.suite.ts > y: Error: beforeAll failed Bearer [REDACTED]',
    ]);
    const clean = await write(runRecord([passed]));
    expect(readdirSync(join(clean.dir, 'allure-results')).filter((f) => f.endsWith('-globals.json'))).toEqual([]);
  });
});

describe('reportName', () => {
  const counts = { tests: 3, passed: 3, failed: 0, skipped: 0, failures: 0, warnings: 0 };
  it('puts the verdict and the warnings in the title the landing page shows: a warning-only run does not read as all clear', () => {
    expect(reportName(undefined, { verdict: 'pass', counts })).toBe('Pay-Connect conformance: PASS');
    expect(reportName(undefined, { verdict: 'pass', counts: { ...counts, warnings: 2 } })).toBe(
      'Pay-Connect conformance: PASS, 2 warnings',
    );
    expect(
      reportName('Pay-Connect certification: webhook receiver x', {
        verdict: 'fail',
        counts: { ...counts, failures: 1, warnings: 1, known: 1 },
      }),
    ).toBe(
      'Pay-Connect certification: webhook receiver x: FAIL, 1 failure, 1 warning, 1 known defect (failed, and accepted by the baseline: see Resolutions)',
    );
  });

  it('says the certification beside the verdict: a run that passes but is not certified does not read as all clear', () => {
    expect(reportName(undefined, { verdict: 'pass', counts: { ...counts, notChecked: 2 } }, false)).toBe(
      'Pay-Connect conformance: PASS, NOT CERTIFIED, 2 not checked',
    );
    expect(reportName(undefined, { verdict: 'pass', counts }, true)).toBe('Pay-Connect conformance: PASS, CERTIFIED');
  });

  it('counts one defect once: folded findings are said so, and known defects are counted by root', () => {
    expect(reportName(undefined, { verdict: 'fail', counts: { ...counts, failures: 1, warnings: 1, folded: 1 } }, false)).toBe(
      'Pay-Connect conformance: FAIL, NOT CERTIFIED, 1 failure, 1 warning (1 finding folded under their root)',
    );
    const root = { ...finding(), test: 'print-slip > a', repeats: 0, repeatedIn: [], evidence: null };
    const follow = {
      ...root,
      check: 'print-slip.agrees-with-status',
      clause: 'sandbox#status-and-print-slip',
      message: 'disagrees',
      followsFrom: { check: root.check, clause: root.clause, message: root.message, test: root.test, because: 'it follows' },
    };
    expect(reportName(undefined, { verdict: 'pass', counts: { ...counts, known: 2 }, known: [root, follow] }, false)).toBe(
      'Pay-Connect conformance: PASS, NOT CERTIFIED, 1 known defect (failed, and accepted by the baseline: see Resolutions)',
    );
  });
});
