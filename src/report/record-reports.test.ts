import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { certificationHtml, certificationMarkdown, certify } from './certification.ts';
import { writeRecordReports } from './record-reports.ts';
import { buildSummary } from './summary.ts';
import { finding, reportsDirs, runInfo, runRecord, testRecord } from './testing.ts';

const reportsDir = reportsDirs('pcc-record-reports-');

const exchange = (seq: number, status: number): Exchange => ({
  seq,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:9/hook',
    path: '/hook',
    headers: { Signature: 'ab'.repeat(32), 'Content-Type': 'application/json' },
    body: '{"event":"transaction.success"}',
  },
  response: { status, headers: { 'content-type': 'application/json' }, body: { ok: status < 300 }, rawBody: `{"ok":${status < 300}}` },
  startedAt: '2026-01-02T03:04:06.000Z',
  durationMs: 3,
});

const info = runInfo({
  target: { kind: 'receiver', baseUrl: 'http://127.0.0.1:9/hook' },
  integratorId: '',
  seed: 0,
  terminalMode: 'none',
  profile: 'public',
});
const passed = testRecord({
  capability: 'receiver',
  scenario: 'valid deliveries accepted',
  clause: 'spec#events',
  file: 'receiver-check/receiver.valid-accepted',
  exchanges: [exchange(1, 200), exchange(2, 204)],
  startedAt: '2026-01-02T03:04:06.000Z',
});
const failed = testRecord({
  capability: 'receiver',
  scenario: 'unsigned refused',
  clause: 'spec#events',
  file: 'receiver-check/receiver.unsigned-refused',
  state: 'failed',
  exchanges: [exchange(3, 200)],
  findings: [
    finding({
      check: 'receiver.unsigned-refused',
      clause: 'spec#events',
      message: 'answered 200 to a delivery without Signature',
      evidence: { exchange: exchange(3, 200) },
    }),
  ],
});
const warned = testRecord({
  capability: 'receiver',
  scenario: 'malformed refused',
  clause: 'profile#webhooks',
  file: 'receiver-check/receiver.malformed-refused',
  exchanges: [exchange(4, 500)],
  findings: [
    finding({
      check: 'receiver.malformed-refused',
      severity: 'warning',
      clause: 'profile#webhooks',
      message: 'answered 500',
      evidence: { exchange: exchange(4, 500) },
    }),
  ],
});
const certification = { subject: 'webhook receiver http://127.0.0.1:9/hook', required: ['receiver'] };

describe('writeRecordReports', () => {
  it('all passed (a warning allowed): exit 0, the summary of buildSummary, certified with the subject in the title', async () => {
    const dir = await reportsDir();
    const record = runRecord([passed, warned]);
    const r = await writeRecordReports({ dir, record, info, html: false, certification, stderr: () => {} });
    expect(r.exitCode).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary).toEqual(
      JSON.parse(
        JSON.stringify(
          buildSummary(record, info.tool, info.target, { startedAt: info.startedAt, finishedAt: info.finishedAt, labels: {} }),
        ),
      ),
    );
    expect(summary.seed).toBeUndefined();
    expect(r.summary.counts).toMatchObject({ tests: 2, passed: 2, warnings: 1, failures: 0 });
    expect(r.reports.certification.certified).toBe(true);
    const md = readFileSync(r.reports.certificationMd, 'utf8');
    expect(md.split('\n')[0]).toBe('# Pay-Connect conformance certification: webhook receiver http://127.0.0.1:9/hook');
    expect(md).toContain('**Verdict: CERTIFIED**');
    expect(md).toContain('| Required capabilities | receiver |');
    expect(md).not.toMatch(/Spec-level suites|\| Terminal id |\| Seed |\| Integrator id |\| Suites /);
    const html = readFileSync(r.reports.certificationHtml, 'utf8');
    expect(html).toContain('<h1>Pay-Connect conformance certification: webhook receiver http://127.0.0.1:9/hook</h1>');
    expect(html).not.toContain('<th>Terminal id</th>');
    expect(readFileSync(r.reports.junit, 'utf8').match(/<testcase /g)).toHaveLength(2);
    expect(r.reports.allureReport).toBeUndefined();
  });

  it('a failure: exit 1, not certified naming the test; a required capability with no test is named', async () => {
    const dir = await reportsDir();
    const r = await writeRecordReports({
      dir,
      record: runRecord([passed, failed]),
      info,
      html: false,
      certification: { ...certification, required: ['receiver', 'client'] },
      stderr: () => {},
    });
    expect(r.exitCode).toBe(1);
    expect(r.reports.certification.certified).toBe(false);
    expect(r.reports.certification.reasons.join('\n')).toContain('receiver > unsigned refused: [receiver.unsigned-refused]');
    expect(r.reports.certification.reasons).toContain('suite client did not run (no test)');
  });

  it('a toolkit error in a test: exit 2', async () => {
    const dir = await reportsDir();
    const broken = testRecord({ capability: 'receiver', state: 'failed', toolkitError: { code: 'PCC_INTERNAL', message: 'boom' } });
    const r = await writeRecordReports({ dir, record: runRecord([broken]), info, html: false, certification, stderr: () => {} });
    expect(r.exitCode).toBe(2);
  });

  it("writes Allure results in Allure's format: labels, a step per exchange, the finding under its exchange, attachments on disk", async () => {
    const dir = await reportsDir();
    const r = await writeRecordReports({
      dir,
      record: runRecord([passed, failed, warned]),
      info,
      html: false,
      certification,
      stderr: () => {},
    });
    const files = readdirSync(r.reports.allureResults);
    const results = files
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(r.reports.allureResults, f), 'utf8')));
    expect(results).toHaveLength(3);
    expect(files).toContain('environment.properties');
    expect(files).toContain('categories.json');
    const byName = Object.fromEntries(results.map((x) => [x.name, x]));
    const f = byName['unsigned refused'];
    expect(f.status).toBe('failed');
    expect(f.stage).toBe('finished');
    expect(f.fullName).toBe('receiver-check/receiver.unsigned-refused#receiver > unsigned refused');
    expect(f.historyId).toMatch(/^[0-9a-f]{32}:[0-9a-f]{32}$/);
    expect(f.testCaseId).toBe(f.historyId.split(':')[0]);
    const labels = Object.fromEntries(f.labels.map((l: { name: string; value: string }) => [l.name, l.value]));
    expect(labels).toMatchObject({
      epic: 'receiver',
      story: 'unsigned refused',
      severity: 'critical',
      conformance: 'spec-failure',
      tag: 'spec#events',
    });
    expect(f.statusDetails.message).toContain('[receiver.unsigned-refused]');
    expect(f.steps).toHaveLength(1);
    expect(f.steps[0].name).toBe('POST /hook → 200');
    expect(f.steps[0].status).toBe('failed');
    expect(f.steps[0].attachments.map((a: { name: string }) => a.name)).toEqual(['exchange']);
    expect(f.steps[0].steps[0].name).toMatch(/^FAIL \[receiver\.unsigned-refused\]/);
    expect(f.attachments.map((a: { name: string }) => a.name)).toContain('exchanges');
    for (const a of [...f.attachments, ...f.steps[0].attachments]) expect(existsSync(join(r.reports.allureResults, a.source))).toBe(true);
    const transcript = readFileSync(
      join(r.reports.allureResults, f.attachments.find((a: { name: string }) => a.name === 'exchanges').source),
      'utf8',
    );
    expect(transcript).toContain("curl -sS -i -X POST 'http://127.0.0.1:9/hook'");
    expect(byName['malformed refused'].status).toBe('passed');
    expect(byName['malformed refused'].statusDetails.message).toMatch(/^warning:\n\[receiver\.malformed-refused\]/);
    expect(byName['valid deliveries accepted'].steps).toHaveLength(2);
  });

  it('scrubs secret-looking fields before writing', async () => {
    const dir = await reportsDir();
    const leaky = testRecord({
      capability: 'receiver',
      exchanges: [
        {
          ...exchange(1, 200),
          response: {
            status: 200,
            headers: {},
            body: { webhook_secret_key: 'leaked-key-value' },
            rawBody: '{"webhook_secret_key":"leaked-key-value"}',
          },
        },
      ],
    });
    const r = await writeRecordReports({ dir, record: runRecord([leaky]), info, html: false, certification, stderr: () => {} });
    for (const f of [
      r.reports.summary,
      r.reports.junit,
      ...readdirSync(r.reports.allureResults).map((n) => join(r.reports.allureResults, n)),
    ])
      expect(readFileSync(f, 'utf8')).not.toContain('leaked-key-value');
  });
});

describe('the certification of a subject, from options (never by patching the text)', () => {
  const record = runRecord([passed]);
  const summary = buildSummary(record, info.tool, info.target);
  const cert = certify(record, summary, info, 'ab'.repeat(32), [], ['x']);

  it('takes a subject with $ and | literally, names the required capabilities instead of the suites, and leaves out only the facts asked', () => {
    const md = certificationMarkdown(record, summary, runInfo(), cert, undefined, {
      subject: 'a $& b | c',
      required: ['x'],
      omit: ['Seed'],
    });
    expect(md.split('\n')[0]).toBe('# Pay-Connect conformance certification: a $& b \\| c');
    expect(md).toContain('| Required capabilities | x |');
    expect(md).toContain('| Integrator id | sim-integrator |');
    expect(md).not.toMatch(/\| Seed \||\| Suites \||Spec-level suites/);
    const html = certificationHtml(record, summary, runInfo(), cert, undefined, {
      subject: '<a> & "b"',
      required: ['x'],
      omit: ['Integrator id'],
    });
    expect(html).toContain('<title>Pay-Connect conformance certification: &lt;a&gt; &amp; &quot;b&quot;</title>');
    expect(html).toContain('<h1>Pay-Connect conformance certification: &lt;a&gt; &amp; &quot;b&quot;</h1>');
    expect(html).toContain('<tr><th>Required capabilities</th><td>x</td></tr>');
    expect(html).toContain('<tr><th>Seed</th><td>42</td></tr>');
    expect(html).not.toContain('Integrator id');
  });

  it("without options it is a run's: the plain title, the suites and every fact", () => {
    const md = certificationMarkdown(record, summary, runInfo(), cert);
    expect(md.split('\n')[0]).toBe('# Pay-Connect conformance certification');
    expect(md).toContain('| Suites | all |');
    expect(md).toContain('| Seed | 42 |');
    expect(md).toContain('Spec-level suites without a test in this run:');
  });
});
