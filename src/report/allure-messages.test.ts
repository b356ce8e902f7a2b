import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { type AllureMessage, allureMessagesFor, clauseUrlFrom, featureOf, headingAnchor, severityOf } from './allure-messages.ts';
import { environmentProperties } from './allure-results.ts';
import { stripAnalytics, stripAnalyticsInFile } from './allure-html.ts';
import { finding, testRecord } from './testing.ts';

function exchange(seq: number, over: Partial<Exchange> = {}): Exchange {
  return {
    seq,
    operationId: 'getPrintSlip',
    request: {
      method: 'GET',
      url: `http://127.0.0.1:1/v1/pay-connect/transactions/t${seq}/print-slip/`,
      path: `/v1/pay-connect/transactions/t${seq}/print-slip/`,
      headers: { authorization: 'Bearer [REDACTED]' },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { total_amount: 101 },
      rawBody: '{"total_amount":101}',
    },
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
    deliveries: [
      {
        seq: 1,
        receivedAt: new Date(1_700_000_001_500).toISOString(),
        method: 'POST',
        url: 'http://127.0.0.1:9/webhook',
        headers: { signature: 'sig' },
        body: { event: 'transaction.success' },
        event: 'transaction.success',
        eventId: 'e1',
        signature: 'valid',
        status: 200,
      },
    ],
    findings: [
      finding({
        evidence: { body: {}, exchange: { seq: 2 } },
        quote: ['| total_amount | integer | yes | amount + tip_amount, in cents |'],
      }),
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
    expect(labels).toEqual({
      epic: 'print-slip',
      feature: 'getPrintSlip',
      story: 'slip of a SUCCESS',
      severity: 'critical',
      conformance: 'spec-failure',
    });
    expect(meta.data.labels!.filter((l) => l.name === 'tag').map((l) => l.value)).toEqual([
      'spec#get-v1pay-connecttransactionstransaction_idprint-slip',
      'spec#transaction-print-slip',
      'profile#webhooks',
      'sandbox#transactions',
    ]);
    expect(meta.data.links![0]).toEqual({
      name: 'spec#get-v1pay-connecttransactionstransaction_idprint-slip',
      url: 'https://docs.example/pay-connect-spec.md#get-v1pay-connecttransactionstransaction_idprint-slip',
      type: 'link',
    });
    expect(meta.data.parameters).toEqual([
      { name: 'amount', value: '100', excluded: true },
      { name: 'terminal', value: 'auto', excluded: true },
    ]);
  });

  it('makes one step per exchange and delivery, in time order; attachments only where a finding is', () => {
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
    // The failure quotes its sentence: in its attachment, and beside its clause in the step's status.
    const failed = messages.find(
      (m) => m.type === 'attachment_content' && m.data.name === 'finding' && decoded(m).includes('invariant.total-amount'),
    )!;
    expect(JSON.parse(decoded(failed)).quote).toEqual(['| total_amount | integer | yes | amount + tip_amount, in cents |']);
    expect(
      messages.some(
        (m) =>
          m.type === 'step_stop' &&
          m.data.statusDetails?.message?.includes(
            'spec#transaction-print-slip: “| total_amount | integer | yes | amount + tip_amount, in cents |”',
          ),
      ),
    ).toBe(true);
    // The exchange with a failure (#2) and the delivery with a warning (e1) carry their own evidence;
    // #1 is only in the transcript.
    expect(names.filter((n) => n === 'exchange')).toHaveLength(1);
    expect(names.filter((n) => n === 'delivery')).toHaveLength(1);
    expect(names.filter((n) => n === 'exchanges')).toHaveLength(1);
    const firstStep = messages.findIndex((m) => m.type === 'step_start');
    expect(messages[firstStep + 1]).toMatchObject({ type: 'step_stop' });
    const own = (name: string) => decoded(messages.find((m) => m.type === 'attachment_content' && m.data.name === name)!);
    expect(own('delivery')).toContain("curl -sS -i -X POST 'http://127.0.0.1:9/webhook'");
    expect(own('exchange')).toMatch(
      /^# set PAYCONNECT_TOKEN: .*\n=== #2 GET .*\n.*\n  -H "authorization: Bearer \$PAYCONNECT_TOKEN"\n\nHTTP 200\n/,
    );
  });

  it('attaches the whole conversation once, before the steps: curl line and answer of each exchange, each delivery', () => {
    const at = messages.findIndex((m) => m.type === 'attachment_content' && m.data.name === 'exchanges');
    expect(at).toBeLessThan(messages.findIndex((m) => m.type === 'step_start'));
    const text = decoded(messages[at]!);
    expect(text).toMatch(
      /^# 2 HTTP exchanges and 1 webhook deliveries of this test, in time order \(secrets redacted\)\.\n# set PAYCONNECT_TOKEN: /,
    );
    const entries = text
      .split('\n=== ')
      .slice(1)
      .map((e) => e.split('\n')[0]);
    expect(entries).toEqual([
      '#1 GET /v1/pay-connect/transactions/t1/print-slip/ → 200 (generateTransaction), 5 ms at 2023-11-14T22:13:21.000Z',
      'webhook transaction.success #1 → 200 (signature valid) at 2023-11-14T22:13:21.500Z',
      '#2 GET /v1/pay-connect/transactions/t2/print-slip/ → 200 (getPrintSlip), 5 ms at 2023-11-14T22:13:22.000Z',
    ]);
    expect(text).toContain(
      "curl -sS -i 'http://127.0.0.1:1/v1/pay-connect/transactions/t2/print-slip/' \\\n  -H \"authorization: " +
        'Bearer $PAYCONNECT_TOKEN"\n\nHTTP 200\ncontent-type: application/json\n\n{\n  "total_amount": 101\n}',
    );
    expect(text).toContain("curl -sS -i -X POST 'http://127.0.0.1:9/webhook'");
  });

  it('puts a finding under the exchange its evidence names, and fails that step', () => {
    const i = messages.findIndex((m) => m.type === 'step_start' && m.data.name.startsWith('GET /v1/pay-connect/transactions/t2/'));
    const inner = messages.slice(i + 1);
    const failStep = inner.findIndex((m) => m.type === 'step_start');
    expect(inner[failStep]).toMatchObject({
      data: { name: 'FAIL [invariant.total-amount] (spec#transaction-print-slip) total_amount 101 != amount 100 + tip_amount 0' },
    });
    const stops = inner.filter((m) => m.type === 'step_stop');
    expect(stops[0]).toMatchObject({ data: { status: 'failed' } });
    expect(stops[1]).toMatchObject({ data: { status: 'failed' } });
    // The evidence attached without the exchange it sits under.
    expect(JSON.parse(decoded(inner[failStep + 1]!)).evidence).toEqual({ body: {} });
  });

  it('names the feature after the first request that is not pairing or a token when the clause is no endpoint', () => {
    const t = testRecord({
      clause: 'sandbox#transactions',
      exchanges: [
        exchange(1, { operationId: 'pair' }),
        exchange(2, { operationId: 'getToken' }),
        exchange(3, { operationId: 'generateTransaction' }),
      ],
    });
    expect(featureOf(t, endpoints)).toBe('generateTransaction');
    expect(headingAnchor('POST /v1/pay-connect/transactions/{transaction_id}/cancel/')).toBe(
      'post-v1pay-connecttransactionstransaction_idcancel',
    );
  });

  it("prefers the operation named after the test's capability: a print-slip test that starts a payment first is about getPrintSlip", () => {
    const ops = ['pair', 'getToken', 'generateTransaction', 'getTransactionStatus', 'getPrintSlip'];
    const slip = testRecord({
      capability: 'print-slip',
      clause: 'sandbox#status-and-print-slip',
      exchanges: ops.map((o, i) => exchange(i + 1, { operationId: o })),
    });
    expect(featureOf(slip, endpoints)).toBe('getPrintSlip');
    const pairing = testRecord({
      capability: 'pairing',
      clause: 'sandbox#pairing',
      exchanges: ['pair', 'getToken', 'getConfig'].map((o, i) => exchange(i + 1, { operationId: o })),
    });
    expect(featureOf(pairing, endpoints)).toBe('pair');
  });

  it('does not name a token test after the pairing it happened to make for its terminal', () => {
    const token = (ops: string[]) =>
      testRecord({ capability: 'auth', clause: 'sandbox#tokens', exchanges: ops.map((o, i) => exchange(i + 1, { operationId: o })) });
    expect(featureOf(token(['pair', 'getToken', 'getToken']), endpoints)).toBe('getToken');
    expect(featureOf(token(['getToken', 'getToken']), endpoints)).toBe('getToken');
  });
});

describe('severityOf', () => {
  it('is decided by the gravest finding: spec failure critical, other failure normal, warning minor; else by the clause', () => {
    const stateful = { clause: 'sandbox#transactions' };
    expect(
      severityOf(testRecord({ ...stateful, findings: [finding({ severity: 'failure', clause: 'spec#transaction-print-slip' })] })),
    ).toBe('critical');
    expect(
      severityOf(
        testRecord({
          ...stateful,
          findings: [
            finding({ severity: 'warning', clause: 'profile#webhooks' }),
            finding({ severity: 'failure', clause: 'profile#webhooks' }),
          ],
        }),
      ),
    ).toBe('normal');
    expect(
      severityOf(testRecord({ clause: 'spec#pairing-result', findings: [finding({ severity: 'warning', clause: 'profile#webhooks' })] })),
    ).toBe('minor');
    expect(severityOf(testRecord({ ...stateful }))).toBe('minor');
    expect(severityOf(testRecord({ clause: 'spec#pairing-result' }))).toBe('critical');
  });
});

describe('report files helpers', () => {
  it('writes environment.properties that a properties reader reads back', () => {
    expect(environmentProperties({ 'terminal.id': '123', target: 'sim (http://x:1)', 'a key': 'ü=1' })).toBe(
      'terminal.id=123\ntarget=sim (http://x:1)\na\\ key=\\u00fc=1\n',
    );
  });

  it('removes the remote analytics of the Allure page template', () => {
    const html =
      `<div></div>\n    <script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>\n ` +
      `   <script>\n        window.dataLayer = window.dataLayer || [];\n        gtag('config', 'G-1');\n ` +
      `   </script>\n<script>keep()</script>`;
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
  it('shows its first and last exchanges and those with a finding; a run between them is one step, a line each in the transcript', () => {
    const exchanges = Array.from({ length: 30 }, (_, i) =>
      exchange(i + 1, i === 20 ? { response: undefined, error: { code: 'ECONNRESET', message: 'socket hang up' } } : {}),
    );
    // A delivery between #18 and #19 does not split the run it falls in.
    const deliveries = [
      {
        seq: 7,
        receivedAt: new Date(1_700_000_018_500).toISOString(),
        method: 'POST',
        url: 'http://127.0.0.1:9/w',
        headers: {},
        body: {},
        event: 'transaction.success',
        eventId: 'e7',
        signature: 'valid',
        status: 200,
      },
    ];
    const t = testRecord({ exchanges, deliveries, findings: [finding({ evidence: { exchange: { seq: 15 } } })] });
    const messages = allureMessagesFor(t, { attachExchanges: { first: 5, last: 3 } });
    let depth = 0;
    const tops: string[] = [];
    for (const m of messages) {
      if (m.type === 'step_start' && depth++ === 0) tops.push(m.data.name);
      if (m.type === 'step_stop') depth--;
    }
    expect(tops.slice(5, 8)).toEqual([
      '9 exchanges (#6 to #14), one line each in the "exchanges" attachment',
      'GET /v1/pay-connect/transactions/t15/print-slip/ → 200 (getPrintSlip)',
      '12 exchanges (#16 to #27) and 1 webhook delivery, one line each in the "exchanges" attachment',
    ]);
    // the first 5, a run, #15 (its finding under it), a run, the last 3
    expect(tops).toHaveLength(5 + 1 + 1 + 1 + 3);
    const run = messages.findIndex((m) => m.type === 'step_start' && m.data.name.startsWith('12 exchanges'));
    expect(messages[run]).toMatchObject({ data: { start: Date.parse(exchanges[15]!.startedAt), name: expect.any(String) } });
    expect(messages[run + 1]).toMatchObject({ type: 'step_stop', data: { status: 'broken' } });
    expect(messages.filter((m) => m.type === 'attachment_content' && m.data.name === 'exchange')).toHaveLength(1);
    const text = decoded(messages.find((m) => m.type === 'attachment_content' && m.data.name === 'exchanges')!);
    expect(text).toContain('# In full: the first 5, the last 3 and those a finding is about; the others one line each.');
    expect(text).toContain(
      '=== 12 exchanges (#16 to #27) and 1 webhook delivery, one line each\n' +
        '#16 GET /v1/pay-connect/transactions/t16/print-slip/ → 200 (getPrintSlip), 5 ms\n',
    );
    expect(text).toContain('\nwebhook transaction.success #7 → 200 (signature valid)\n#19 GET');
    expect(text).toContain('#21 GET /v1/pay-connect/transactions/t21/print-slip/ → ECONNRESET (getPrintSlip), 5 ms');
    expect(text.match(/^curl /gm)).toHaveLength(5 + 1 + 3);
  });

  it('cuts a long body in the transcript', () => {
    const t = testRecord({ exchanges: [exchange(1, { response: { status: 200, headers: {}, body: { slip: 'x'.repeat(500) } } })] });
    const text = decoded(
      allureMessagesFor(t, { transcriptBodyChars: 100 }).find((m) => m.type === 'attachment_content' && m.data.name === 'exchanges')!,
    );
    expect(text).toMatch(/x… \(\d{3} chars, cut\)/);
  });
});

describe('clause text', () => {
  const clauseText = (c: string) => `text of ${c}\n`;
  const names = (t: ReturnType<typeof testRecord>) =>
    allureMessagesFor(t, { clauseText }).flatMap((m) =>
      m.type === 'attachment_content' && m.data.name.startsWith('clause ') ? [m.data.name] : [],
    );

  it('is attached for each clause of a test with a finding, and for a failed test', () => {
    expect(
      names(testRecord({ clause: 'spec#pairing-result', findings: [finding({ severity: 'warning', clause: 'profile#webhooks' })] })),
    ).toEqual(['clause spec#pairing-result', 'clause profile#webhooks']);
    expect(names(testRecord({ clause: 'spec#pairing-result', state: 'failed' }))).toEqual(['clause spec#pairing-result']);
  });

  it('is left out of a test that passed without findings (its clause stays in the label and description)', () => {
    expect(names(testRecord({ clause: 'spec#pairing-result', state: 'passed' }))).toEqual([]);
  });
});
