/**
 * Known findings and confirmations, as a team uses them in CI: a fault run fails; `baseline write`
 * makes its findings known; the same run with `--baseline` passes and lists them as known in every
 * report; expired entries fail the run by name. `--confirm N` tells an intermittent defect (a fault
 * switch acting at 30 % of its decisions) from a deterministic one.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './support/run-cli.ts';

interface KnownSummary {
  verdict: string;
  counts: { failures: number; warnings: number; known?: number };
  findings: {
    check: string;
    severity: string;
    followsFrom?: { check: string };
    confirmation?: { attempts: number; reproduced: number; kind: string; rate: number };
  }[];
  known?: { check: string; known: { entry: number; ticket?: string; reason: string } }[];
  baseline?: { expired: { entry: number; check: string }[]; resolved: unknown[]; matched: { entry: number; findings: number }[] };
  confirmed?: { tests: number; runs: number };
}

const FAULT = ['run', '--no-html', '--suite', 'payment', '--sim-fault', 'generate.server-error', '--seed', '5', '--terminals', '1'];
const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as KnownSummary;

describe('a baseline of known findings', () => {
  test('written from a failing run, it makes the same run pass with the findings known everywhere; expired, it fails naming the entries', async () => {
    const failing = await runCli(FAULT);
    expect(failing.code, failing.stderr).toBe(1);
    const first = read(failing.reportsDir);
    expect(first.counts.failures).toBeGreaterThan(0);

    const file = join(tempDir(), 'known.json');
    const write = await runCli([
      'baseline',
      'write',
      file,
      '--from',
      failing.reportsDir,
      '--expires',
      '30d',
      '--reason',
      'generate answers 500 (fix in 4.3)',
      '--ticket',
      'PAY-101',
    ]);
    expect(write.code, write.stderr).toBe(0);
    const entries = (JSON.parse(readFileSync(file, 'utf8')) as { entries: { check: string; operation?: string; match?: string }[] })
      .entries;
    // One entry per defect: the undocumented 500 follows from the 500 itself on the same answer.
    const roots = first.findings.filter((f) => !f.followsFrom);
    expect(first.findings.find((f) => f.check === 'response.status-documented')?.followsFrom).toMatchObject({ check: 'request.accepted' });
    expect(entries.map((e) => e.check)).toEqual(roots.map((f) => f.check));
    expect(entries.every((e) => e.operation === 'generateTransaction' && e.match?.startsWith('^'))).toBe(true);

    const known = await runCli([...FAULT, '--baseline', file]);
    expect(known.code, `${known.stdout}\n${known.stderr}`).toBe(0);
    const s = read(known.reportsDir);
    expect(s.verdict).toBe('pass');
    expect(s.findings).toEqual([]);
    expect(s.counts.known).toBe(first.findings.length);
    expect(s.known!.every((f) => f.known.ticket === 'PAY-101')).toBe(true);
    expect(s.baseline!.expired).toEqual([]);
    // Everywhere a reader looks: the console, JUnit, the certification, Allure.
    expect(known.stdout).toMatch(
      /^KNOWN request\.accepted \(spec#endpoints\) .*known defect \(PAY-101, baseline entry \d+, until \d{4}-\d{2}-\d{2}\): generate answers 500/m,
    );
    expect(known.stdout).toMatch(/PASS: .* \d+ known/);
    expect(readFileSync(join(known.reportsDir, 'junit.xml'), 'utf8')).toContain('KNOWN [request.accepted]');
    const cert = readFileSync(join(known.reportsDir, 'certification.md'), 'utf8');
    expect(cert).toContain('## Known defects');
    expect(cert).toMatch(/Not certified because:[\s\S]*known defect/);
    const allure = join(known.reportsDir, 'allure-results');
    const results = readdirSync(allure)
      .filter((f) => f.endsWith('-result.json'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(allure, f), 'utf8')) as {
            status: string;
            labels: { name: string; value: string }[];
            statusDetails?: { message?: string; known?: boolean };
          },
      );
    const marked = results.filter((r) => r.labels.some((l) => l.name === 'conformance' && l.value === 'known-defect'));
    expect(marked.length).toBeGreaterThan(0);
    // Failed and known: Allure 3 counts them under the "accepted" resolution, apart from skipped tests.
    expect(
      marked.every(
        (r) => r.status === 'failed' && r.statusDetails?.known === true && /^known defect \(PAY-101/.test(r.statusDetails?.message ?? ''),
      ),
    ).toBe(true);

    // The same entries, due yesterday: the run fails, naming each of them, and the findings count again.
    const past = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const data = JSON.parse(readFileSync(file, 'utf8')) as { entries: { expires: string }[] };
    for (const e of data.entries) e.expires = past;
    writeFileSync(file, JSON.stringify(data));
    const expired = await runCli([...FAULT, '--baseline', file]);
    expect(expired.code, expired.stderr).toBe(1);
    const x = read(expired.reportsDir);
    expect(x.baseline!.expired.map((e) => e.entry)).toEqual(data.entries.map((_, i) => i + 1));
    expect(x.counts.failures).toBe(first.counts.failures);
    for (let i = 1; i <= data.entries.length; i++) expect(expired.stdout).toContain(`EXPIRED baseline entry ${i} `);
  }, 180_000);

  test('a malformed baseline stops the run before anything starts, naming the entry (exit 2)', async () => {
    const dir = tempDir();
    const cases: [unknown, RegExp][] = [
      [{ entries: [{ check: 'request.accepted', reason: 'r' }] }, /entry 1 has no "expires"/],
      [
        { entries: [{ check: 'request.acepted', reason: 'r', expires: '2099-01-01' }] },
        /names no rule: request\.acepted; did you mean request\.accepted/,
      ],
      [{ entries: [{ check: 'request.accepted', reason: 'r', expires: 'soon' }] }, /entry 1 "expires" is "soon", not a date/],
      [
        { entries: [{ check: 'request.accepted', reason: 'r', expires: '2099-01-01', match: '(' }] },
        /entry 1 "match" is not a regular expression/,
      ],
    ];
    for (const [content, message] of cases) {
      const file = join(dir, 'b.json');
      writeFileSync(file, JSON.stringify(content));
      const r = await runCli(['run', '--no-html', '--suite', 'config', '--baseline', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.summary).toBeUndefined();
    }
    // The same registry checks --disable-check: a misspelt id, or another command's rule, stops the run.
    for (const [id, message] of [
      ['response.shema', /--disable-check names no rule: response\.shema; did you mean response\.schema\?/],
      ['receiver.valid-accepted', /a rule of check-receiver and certify-client, not of run/],
    ] as const) {
      const r = await runCli(['run', '--no-html', '--suite', 'config', '--disable-check', id]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.summary).toBeUndefined();
    }
  }, 120_000);
});

describe('--confirm N', () => {
  const confirmRun = (rate: string) => runCli([...FAULT, '--sim-fault-rate', rate, '--confirm', '5']);

  test('a fault that acts at 30 % of its decisions: the findings are intermittent, with their rate; at 100 %: deterministic', async () => {
    const flaky = await confirmRun('0.3');
    expect(flaky.code, flaky.stderr).toBe(1);
    const f = read(flaky.reportsDir);
    const confirmedFindings = f.findings.filter((x) => x.confirmation);
    expect(confirmedFindings.length).toBeGreaterThan(0);
    for (const c of confirmedFindings.map((x) => x.confirmation!)) {
      expect(c.attempts).toBe(5);
      expect(c.kind).toBe('intermittent');
      expect(c.reproduced).toBeLessThan(5);
      expect(c.rate).toBeCloseTo((c.reproduced + 1) / 6, 2);
    }
    expect(flaky.stdout).toMatch(/intermittent: reproduced [0-4]\/5 runs again/);

    const always = await confirmRun('1');
    expect(always.code, always.stderr).toBe(1);
    const d = read(always.reportsDir);
    const all = d.findings.filter((x) => x.confirmation);
    expect(all.length).toBeGreaterThan(0);
    for (const c of all.map((x) => x.confirmation!))
      expect(c).toMatchObject({ attempts: 5, reproduced: 5, kind: 'deterministic', rate: 1 });
    expect(d.confirmed).toMatchObject({ tests: expect.any(Number) });
  }, 240_000);
});
