import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { type AllureMessage, allureMessagesFor, clauseUrlFrom, featureOf, headingAnchor, severityOf } from './allure-messages.ts';
import { environmentProperties } from './allure-reporter.ts';
import { stripAnalytics, stripAnalyticsInFile } from './allure-html.ts';
import { finding, testRecord } from './testing.ts';

function exchange(seq: number, over: Partial<Exchange> = {}): Exchange {
  return {
    seq,
    operationId: 'getPrintSlip',
    request: { method: 'GET', url: `http://127.0.0.1:1/v1/pay-connect/transactions/t${seq}/print-slip/`, path: `/v1/pay-connect/transactions/t${seq}/print-slip/`, headers: { authorization: 'Bearer [REDACTED]' } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { total_amount: 101 }, rawBody: '{"total_amount":101}' },
    startedAt: new Date(1_700_000_000_000 + seq * 1000).toISOString(),
    durationMs: 5,
    ...over,
  };
}

const endpoints = [
  { operationId: 'generateTransaction', method: 'POST', path: '/v1/pay-connect/transactions/generate/' },
  { operationId: 'getPrintSlip', method: 'GET', path: '/v1/pay-connect/transactions/{transaction_id}/print-slip/' },
];

const decoded = (m: AllureMessage) => (m.type === 'attachment_content' ? Buffer.from(m.data.content, 'base64').toString('utf8') : '');

describe('Allure messages of a test', () => {
  const failing = testRecord({
    capability: 'print-slip',
    scenario: 'slip of a SUCCESS',
    clause: 'spec#get-v1pay-connecttransactionstransaction_idprint-slip',
    state: 'failed',
    parameters: { amount: '100', terminal: 'auto' },
    exchanges: [exchange(1, { operationId: 'generateTransaction' }), exchange(2)],
    deliveries: [{ seq: 1, receivedAt: new Date(1_700_000_001_500).toISOString(), method: 'POST', url: 'http://127.0.0.1:9/webhook', headers: { signature: 'sig' }, body: { event: 'transaction.success' }, event: 'transaction.success', eventId: 'e1', signature: 'valid', status: 200 }],
    findings: [
      finding({ evidence: { body: {}, exchange: { seq: 2 } } }),
      finding({ severity: 'warning', check: 'webhook.x', clause: 'profile#webhooks', message: 'late', evidence: { eventId: 'e1' } }),
      finding({ severity: 'warning', check: 'sandbox.outcome', clause: 'sandbox#transactions', message: 'tip' }),
    ],
  });
  const messages = allureMessagesFor(failing, { endpoints, clauseUrl: clauseUrlFrom('https://docs.example/') });

  it('labels the test: epic = capability, feature = endpoint of its clause, story = scenario, tag = clauses, severity', () => {
    const meta = messages[0]!;
    expect(meta.type).toBe('metadata');
    if (meta.type !== 'metadata') return;
    const labels = Object.fromEntries(meta.data.labels!.filter((l) => l.name !== 'tag').map((l) => [l.name, l.value]));
    expect(labels).toEqual({ epic: 'print-slip', feature: 'getPrintSlip', story: 'slip of a SUCCESS', severity: 'critical', conformance: 'spec-failure' });
    expect(meta.data.labels!.filter((l) => l.name === 'tag').map((l) => l.value)).toEqual(['spec#get-v1pay-connecttransactionstransaction_idprint-slip', 'spec#transaction-print-slip', 'profile#webhooks', 'sandbox#transactions']);
    expect(meta.data.links![0]).toEqual({ name: 'spec#get-v1pay-connecttransactionstransaction_idprint-slip', url: 'https://docs.example/pay-connect-spec.md#get-v1pay-connecttransactionstransaction_idprint-slip', type: 'link' });
    expect(meta.data.parameters).toEqual([{ name: 'amount', value: '100', excluded: true }, { name: 'terminal', value: 'auto', excluded: true }]);
  });

  it('makes one step per exchange and delivery, in time order, each with request, response and curl', () => {
    const tops: string[] = [];
    let depth = 0;
    for (const m of messages) {
      if (m.type === 'step_start') {
        if (depth === 0) tops.push(m.data.name);
        depth++;
      } else if (m.type === 'step_stop') depth--;
    }
    expect(depth).toBe(0);
    expect(tops).toEqual([
      'GET /v1/pay-connect/transactions/t1/print-slip/ → 200 (generateTransaction)',
      'webhook transaction.success #1 → 200 (signature valid)',
      'GET /v1/pay-connect/transactions/t2/print-slip/ → 200 (getPrintSlip)',
      'WARN [sandbox.outcome] (sandbox#transactions) tip',
    ]);
    const names = messages.filter((m) => m.type === 'attachment_content').map((m) => (m.type === 'attachment_content' ? m.data.name : ''));
    expect(names.filter((n) => n === 'curl')).toHaveLength(3);
    expect(names.filter((n) => n === 'request')).toHaveLength(3);
    const curl = messages.find((m) => m.type === 'attachment_content' && m.data.name === 'curl')!;
    expect(decoded(curl)).toContain('-H "authorization: Bearer $PAYCONNECT_TOKEN"');
  });

  it('puts a finding under the exchange its evidence names, and fails that step', () => {
    const i = messages.findIndex((m) => m.type === 'step_start' && m.data.name.startsWith('GET /v1/pay-connect/transactions/t2/'));
    const inner = messages.slice(i + 1);
    const failStep = inner.findIndex((m) => m.type === 'step_start');
    expect(inner[failStep]).toMatchObject({ data: { name: 'FAIL [invariant.total-amount] (spec#transaction-print-slip) total_amount 101 != amount 100 + tip_amount 0' } });
    const stops = inner.filter((m) => m.type === 'step_stop');
    expect(stops[0]).toMatchObject({ data: { status: 'failed' } });
    expect(stops[1]).toMatchObject({ data: { status: 'failed' } });
    // The evidence attached without the exchange it sits under.
    expect(JSON.parse(decoded(inner[failStep + 1]!)).evidence).toEqual({ body: {} });
  });

  it('names the feature after the first request that is not pairing or a token when the clause is no endpoint', () => {
    const t = testRecord({ clause: 'sandbox#transactions', exchanges: [exchange(1, { operationId: 'pair' }), exchange(2, { operationId: 'getToken' }), exchange(3, { operationId: 'generateTransaction' })] });
    expect(featureOf(t, endpoints)).toBe('generateTransaction');
    expect(headingAnchor('POST /v1/pay-connect/transactions/{transaction_id}/cancel/')).toBe('post-v1pay-connecttransactionstransaction_idcancel');
  });
});

describe('severityOf', () => {
  it('is decided by the gravest finding: spec failure critical, other failure normal, warning minor; else by the clause', () => {
    const stateful = { clause: 'sandbox#transactions' };
    expect(severityOf(testRecord({ ...stateful, findings: [finding({ severity: 'failure', clause: 'spec#transaction-print-slip' })] }))).toBe('critical');
    expect(severityOf(testRecord({ ...stateful, findings: [finding({ severity: 'warning', clause: 'profile#webhooks' }), finding({ severity: 'failure', clause: 'profile#webhooks' })] }))).toBe('normal');
    expect(severityOf(testRecord({ clause: 'spec#pairing-result', findings: [finding({ severity: 'warning', clause: 'profile#webhooks' })] }))).toBe('minor');
    expect(severityOf(testRecord({ ...stateful }))).toBe('minor');
    expect(severityOf(testRecord({ clause: 'spec#pairing-result' }))).toBe('critical');
  });
});

describe('report files helpers', () => {
  it('writes environment.properties that a properties reader reads back', () => {
    expect(environmentProperties({ 'terminal.id': '123', target: 'sim (http://x:1)', 'a key': 'ü=1' })).toBe('terminal.id=123\ntarget=sim (http://x:1)\na\\ key=\\u00fc=1\n');
  });

  it('removes the remote analytics of the Allure page template', () => {
    const html = `<div></div>\n    <script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>\n    <script>\n        window.dataLayer = window.dataLayer || [];\n        gtag('config', 'G-1');\n    </script>\n<script>keep()</script>`;
    expect(stripAnalytics(html)).toBe('<div></div>\n    \n<script>keep()</script>');
  });

  it('removes them from a file, byte for byte around them, and leaves a file without them alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pcc-strip-'));
    try {
      const snippet = `<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>\n<script>\n window.dataLayer = [];\n</script>`;
      const before = `<html><script>${'x'.repeat(70_000)}é</script>`;
      const file = join(dir, 'index.html');
      writeFileSync(file, `${before}${snippet}<p>ü</p>`);
      stripAnalyticsInFile(file);
      expect(readFileSync(file, 'utf8')).toBe(`${before}<p>ü</p>`);
      stripAnalyticsInFile(file);
      expect(readFileSync(file, 'utf8')).toBe(`${before}<p>ü</p>`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a long test', () => {
  it('keeps the attachments of its first and last exchanges and of those with a finding', () => {
    const exchanges = Array.from({ length: 30 }, (_, i) => exchange(i + 1));
    const t = testRecord({ exchanges, findings: [finding({ evidence: { exchange: { seq: 15 } } })] });
    const messages = allureMessagesFor(t, { attachExchanges: { first: 5, last: 3 } });
    const curls = messages.filter((m) => m.type === 'attachment_content' && m.data.name === 'curl');
    expect(curls).toHaveLength(5 + 3 + 1);
    const last = messages.filter((m) => m.type === 'step_start').at(-1)!;
    expect(last).toMatchObject({ data: { name: '21 of 30 exchanges shown without attachments (kept: the first 5, the last 3 and those with a finding)' } });
  });
});
