/**
 * The reports of real runs against the simulator: junit.xml against summary.json, the Allure results
 * and HTML report, the certification verdict of a clean and of a broken run, and no secret in any
 * report file (the secrets are collected on the wire, by a recording proxy in front of the simulator).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/engine/index.ts';
import { resolveConfig } from '../src/config/index.ts';
import { findAll, parseXml } from '../src/report/testing.ts';
import { sha256Hex } from '../src/report/index.ts';
import { startSimulator } from '../src/simulator/index.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'pcc-reports-'));
  dirs.push(d);
  return d;
}

async function run(dir: string, argv: string[]) {
  const config = await resolveConfig({ argv: [...argv, '--reports', join(dir, 'reports')], env: {}, cwd: dir });
  const stderr: string[] = [];
  const result = await runConformance(config, { stdout: () => {}, stderr: (s) => stderr.push(s), interactive: false });
  return { result, stderr, reports: join(dir, 'reports') };
}

interface AllureResult {
  name: string;
  status: string;
  labels: { name: string; value: string }[];
  steps: AllureStep[];
  attachments: { name: string; source: string }[];
}
interface AllureStep {
  name: string;
  status: string;
  attachments: { name: string; source: string }[];
  steps: AllureStep[];
}

function allureResults(reports: string): AllureResult[] {
  const dir = join(reports, 'allure-results');
  return readdirSync(dir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as AllureResult);
}

function junitMatchesSummary(reports: string) {
  const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as {
    counts: { tests: number; failed: number; skipped: number };
  };
  const doc = parseXml(readFileSync(join(reports, 'junit.xml'), 'utf8'));
  const n = (k: string) => Number(doc.attrs[k]);
  expect(n('tests')).toBe(summary.counts.tests);
  expect(n('skipped')).toBe(summary.counts.skipped);
  expect(n('failures') + n('errors')).toBe(summary.counts.failed);
  expect(findAll(doc, 'testcase')).toHaveLength(summary.counts.tests);
  return { summary, doc };
}

describe('reports of a run restricted to the payment suite, then of the same with a broken print slip', () => {
  const dir = tempDir();

  it('clean: junit.xml equals summary.json, Allure results and HTML are written, not certified (restricted)', async () => {
    const { result, reports } = await run(dir, ['--suite', 'payment']);
    expect(result.exitCode).toBe(0);
    const { summary } = junitMatchesSummary(reports);
    expect(summary.counts.tests).toBeGreaterThan(0);

    const results = allureResults(reports);
    expect(results).toHaveLength(summary.counts.tests);
    for (const r of results) {
      const labels = Object.fromEntries(r.labels.map((l) => [l.name, l.value]));
      expect(labels).toMatchObject({ epic: 'payment', story: r.name });
      expect(labels.feature).toBeTruthy();
      expect(labels.tag).toMatch(/^(spec|profile|sandbox)#/);
      expect(labels.severity).toBeTruthy();
      expect(r.labels.some((l) => l.name === 'pcc_ref')).toBe(false);
    }
    const steps = results.flatMap((r) => r.steps);
    expect(steps.some((s) => s.name.startsWith('POST /v1/pay-connect/transactions/generate/'))).toBe(true);
    expect(steps.some((s) => s.name.startsWith('webhook transaction.'))).toBe(true);
    const env = readFileSync(join(reports, 'allure-results', 'environment.properties'), 'utf8');
    expect(env).toMatch(/^contract\.sha256=[0-9a-f]{64}$/m);
    expect(env).toMatch(/^terminal\.id=\d+/m);
    expect(env).toMatch(/^integrator\.id=sim-integrator$/m);
    expect(env).toMatch(/^toolkit\.version=payconnect-conformance /m);

    const index = readFileSync(join(reports, 'allure-report', 'index.html'), 'utf8');
    expect(index).not.toContain('googletagmanager');
    expect(readdirSync(reports).filter((f) => f.includes('.tmp-') || f.includes('.old-'))).toEqual([]);

    const md = readFileSync(join(reports, 'certification.md'), 'utf8');
    expect(md).toContain('**Verdict: NOT CERTIFIED**');
    expect(md).toContain('the run was restricted by --suite (payment)');
    expect(md).toContain(sha256Hex(readFileSync(join(reports, 'summary.json'))));
    expect(result.reports.certification.certified).toBe(false);
  });

  it('broken (slip.total-mismatch): a failed spec clause, named in the certification; steps and attachments in Allure; history carried over', async () => {
    const { result, reports } = await run(dir, ['--suite', 'payment', '--sim-fault', 'slip.total-mismatch']);
    expect(result.exitCode).toBe(1);
    const { summary } = junitMatchesSummary(reports);
    expect(summary.counts.failed).toBeGreaterThan(0);

    const cert = result.reports.certification;
    expect(cert.certified).toBe(false);
    expect(cert.reasons).toContainEqual(
      expect.stringMatching(/^suite payment failed: payment > .*: \[invariant\.total-amount\] \(spec#transaction-print-slip\)/),
    );
    const md = readFileSync(join(reports, 'certification.md'), 'utf8');
    // The clause, then the sentence of the spec the finding rests on, then the check.
    expect(md).toContain(
      '| failure | [spec#transaction-print-slip](spec/pay-connect-spec.html#transaction-print-slip) | “\\| total_amount \\| integer \\| yes \\| amount + tip_amount, in cents \\|” | invariant.total-amount |',
    );
    expect(readFileSync(join(reports, 'certification.html'), 'utf8')).toContain('NOT CERTIFIED');

    const failed = allureResults(reports).filter((r) => r.status === 'failed');
    expect(failed).toHaveLength(summary.counts.failed);
    const r = failed[0]!;
    expect(r.labels).toContainEqual({ name: 'conformance', value: 'spec-failure' });
    const slipStep = r.steps.find((s) => s.name.includes('(getPrintSlip)') && s.status === 'failed')!;
    expect(slipStep).toBeDefined();
    expect(slipStep.attachments.map((a) => a.name)).toEqual(['exchange']);
    for (const a of slipStep.attachments) expect(existsSync(join(reports, 'allure-results', a.source))).toBe(true);
    expect(slipStep.steps[0]!.name).toMatch(/^FAIL \[invariant\.total-amount\] \(spec#transaction-print-slip\)/);
    const exchange = readFileSync(join(reports, 'allure-results', slipStep.attachments[0]!.source), 'utf8');
    expect(exchange).toContain('-H "authorization: Bearer $PAYCONNECT_TOKEN"');
    expect(exchange).toMatch(/\nHTTP 200\n[^]*"total_amount"/);
    // The whole conversation, once per test, at the test's top level; clause text beside the finding.
    expect(r.attachments.map((a) => a.name)).toEqual(expect.arrayContaining(['exchanges', 'clause spec#transaction-print-slip']));

    const categories = readFileSync(join(reports, 'allure-results', 'categories.json'), 'utf8');
    expect(categories).toContain('Spec failures');
    // Both runs are in the history kept beside the report.
    expect(readFileSync(join(reports, 'allure-history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

describe('labels of a run (--label) in summary.json, junit.xml, the Allure environment and the certification', () => {
  it('carries each label to every report; a label named like a fact of the run keeps both', async () => {
    const { result, reports } = await run(tempDir(), [
      '--suite',
      'config',
      '--no-html',
      '--label',
      'firmware=4.2.1',
      '--label',
      'terminal=SN-0042',
      '--label',
      'tester=Ana Lima',
      '--label',
      'seed=lab-7',
    ]);
    expect(result.exitCode).toBe(0);
    const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as { labels: Record<string, string>; seed: number };
    expect(summary.labels).toEqual({ firmware: '4.2.1', terminal: 'SN-0042', tester: 'Ana Lima', seed: 'lab-7' });
    expect(typeof summary.seed).toBe('number');

    const doc = parseXml(readFileSync(join(reports, 'junit.xml'), 'utf8'));
    const props = Object.fromEntries(findAll(doc, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({
      'label.firmware': '4.2.1',
      'label.terminal': 'SN-0042',
      'label.tester': 'Ana Lima',
      'label.seed': 'lab-7',
    });

    const env = readFileSync(join(reports, 'allure-results', 'environment.properties'), 'utf8');
    expect(env).toMatch(/^firmware=4\.2\.1$/m);
    expect(env).toMatch(/^terminal=SN-0042$/m);
    expect(env).toMatch(/^tester=Ana Lima$/m);
    expect(env).toMatch(/^label\.seed=lab-7$/m);
    expect(env).toMatch(/^seed=-?\d+$/m);

    const md = readFileSync(join(reports, 'certification.md'), 'utf8');
    expect(md).toContain('| Label firmware | 4.2.1 |');
    expect(md).toContain('| Label terminal | SN-0042 |');
    expect(md).toContain('| Label tester | Ana Lima |');
    expect(readFileSync(join(reports, 'certification.html'), 'utf8')).toContain('<th>Label firmware</th><td>4.2.1</td>');
  });

  it('writes an empty labels object and no label property when none is given', async () => {
    const { result, reports } = await run(tempDir(), ['--suite', 'config', '--no-html']);
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as { labels: unknown }).labels).toEqual({});
    expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).not.toContain('label.');
  });
});

describe('certification of a clean run of every spec-level suite', () => {
  it('says certified', async () => {
    const dir = tempDir();
    const suites = ['pairing', 'auth', 'config', 'payment', 'cancel', 'preauth', 'print-slip', 'webhooks', 'isolation'];
    const { result, reports } = await run(dir, [...suites.flatMap((s) => ['--suite', s]), '--no-html']);
    expect(result.reports.certification.reasons).toEqual([]);
    expect(result.reports.certification.certified).toBe(true);
    expect(readFileSync(join(reports, 'certification.md'), 'utf8')).toContain('**Verdict: CERTIFIED**');
    expect(existsSync(join(reports, 'allure-report'))).toBe(false);
    junitMatchesSummary(reports);
  });
});

/** A proxy in front of the simulator that keeps every body the service answered. */
async function recordingProxy(target: string) {
  const answers: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (r: IncomingMessage) => {
          const back: Buffer[] = [];
          r.on('data', (c: Buffer) => back.push(c));
          r.on('end', () => {
            const body = Buffer.concat(back);
            answers.push(body.toString('utf8'));
            res.writeHead(r.statusCode ?? 502, r.headers);
            res.end(body);
          });
        },
      );
      up.on('error', () => res.writeHead(502).end());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

function secretsIn(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => secretsIn(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (['client_secret', 'access_token', 'webhook_secret_key'].includes(k) && typeof v === 'string' && v.length >= 8) out.add(v);
      else secretsIn(v, out);
    }
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('no secret in any report file', () => {
  it('greps every file of the reports folder for every credential the service handed out', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    const proxy = await recordingProxy(sim.url);
    const dir = tempDir();
    const vault = join(dir, 'vault.json');
    try {
      const { result, reports } = await run(dir, [
        '--target',
        proxy.url,
        '--integrator-id',
        'sim-integrator',
        '--profile',
        'sandbox',
        '--vault',
        vault,
        '--suite',
        'payment',
        '--suite',
        'pairing',
      ]);
      expect(result.record.tests.length).toBeGreaterThan(0);
      const secrets = new Set<string>();
      for (const a of proxy.answers) {
        try {
          secretsIn(JSON.parse(a), secrets);
        } catch {
          /* not JSON */
        }
      }
      secretsIn(JSON.parse(readFileSync(vault, 'utf8')), secrets);
      const kinds = (k: string) => proxy.answers.filter((a) => a.includes(`"${k}"`)).length;
      expect(kinds('client_secret')).toBeGreaterThan(0);
      expect(kinds('access_token')).toBeGreaterThan(0);
      expect(kinds('webhook_secret_key')).toBeGreaterThan(0);
      expect(secrets.size).toBeGreaterThan(3);

      const files = filesUnder(reports);
      expect(files.some((f) => f.endsWith('allure-report/index.html'))).toBe(true);
      expect(files.length).toBeGreaterThan(20);
      const leaks: string[] = [];
      let redacted = 0;
      for (const f of files) {
        const text = readFileSync(f).toString('utf8');
        if (text.includes('[REDACTED]')) redacted++;
        for (const s of secrets) if (text.includes(s)) leaks.push(`${f}: ${s.slice(0, 4)}…`);
      }
      expect(leaks).toEqual([]);
      // The records did carry credentials: they were redacted, not absent.
      expect(redacted).toBeGreaterThan(0);
    } finally {
      await proxy.close();
      await sim.close();
    }
  });
});
