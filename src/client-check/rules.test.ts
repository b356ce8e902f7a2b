/** The rules of certify-client, each on small hand-made recordings. */
import { describe, expect, it } from 'vitest';
import type { RecordedDelivery, RecordedRequest } from '../simulator/index.ts';
import { CLIENT_PROFILE_DEFAULTS, type ClientRun } from './client-run.ts';
import { judgeClient } from './judge.ts';
import { RULES, rulesOf } from '../checks/rule-registry.ts';
import { CLIENT_RULES, type ClientRuleId } from './rules.ts';

const I = 'acme';
const H = { 'x-pay-connect-integrator-id': I, 'content-type': 'application/json' };
let seq = 0;

function req(t: number, method: string, path: string, status: number, o: Partial<RecordedRequest> = {}): RecordedRequest {
  return {
    type: 'request',
    seq: ++seq,
    at: new Date(t).toISOString(),
    t,
    method,
    path,
    headers: { ...H, ...(path.startsWith('/v1/auth') || path.endsWith('/pair/') ? {} : { authorization: 'Bearer [token-1]' }) },
    status,
    durationMs: 2,
    ...(path.startsWith('/v1/auth') || path.endsWith('/pair/') ? {} : { token: 'token-1' }),
    ...o,
  };
}
function hook(t: number, txn: string, status: string, answer: number | null, o: Partial<RecordedDelivery> = {}): RecordedDelivery {
  return {
    type: 'delivery',
    seq: ++seq,
    at: new Date(t).toISOString(),
    t,
    url: 'http://127.0.0.1:9/h',
    event: `transaction.${status.toLowerCase()}`,
    eventId: `e${seq}`,
    transactionId: txn,
    operationId: null,
    status,
    attempt: 0,
    forged: false,
    answer,
    durationMs: 1,
    ...o,
  };
}
const pair = (t: number, webhook = true) =>
  req(t, 'POST', '/v1/pay-connect/pair/', 200, {
    body: { name: 'n', otp: '123456', ...(webhook ? { webhook_url: 'http://127.0.0.1:9/h' } : {}) },
    response: { client_id: 'c1', client_secret: '[REDACTED]' },
  });
const token = (t: number, alias = 'token-1', expires = '3600') =>
  req(t, 'POST', '/v1/auth/token/', 200, {
    body: { grant_type: 'client_credentials', client_id: 'c1', client_secret: '[REDACTED]' },
    response: { access_token: `[${alias}]`, expires_in: expires, token_type: 'Bearer', scope: 'default' },
  });
const generate = (t: number, id: string | null, status = 200, o: Partial<RecordedRequest> = {}) =>
  req(t, 'POST', '/v1/pay-connect/transactions/generate/', status, {
    body: { amount: 1000 },
    ...(id ? { response: { transaction_id: id } } : {}),
    ...o,
  });
const poll = (t: number, id: string, status: string, o: Partial<RecordedRequest> = {}) =>
  req(t, 'GET', `/v1/pay-connect/transactions/${id}/status/`, 200, { response: { status }, ...o });
const slip = (t: number, id: string, o: Partial<RecordedRequest> = {}) =>
  req(t, 'GET', `/v1/pay-connect/transactions/${id}/print-slip/`, 200, o);

/** A well-behaved run: pair, one token, config, pay, poll with back-off, slip, webhooks accepted, forged refused. */
function goodRun(): ClientRun {
  return {
    integratorId: I,
    settings: CLIENT_PROFILE_DEFAULTS,
    requests: [
      pair(0),
      token(10),
      req(20, 'GET', '/v1/pay-connect/config/', 200),
      generate(30, 'T1'),
      poll(300, 'T1', 'IN_PROGRESS'),
      poll(700, 'T1', 'IN_PROGRESS'),
      poll(1300, 'T1', 'IN_PROGRESS'),
      poll(2200, 'T1', 'IN_PROGRESS'),
      poll(3600, 'T1', 'SUCCESS'),
      slip(3700, 'T1'),
      generate(3800, 'T2'),
      poll(4100, 'T2', 'CANCELED'),
    ],
    deliveries: [hook(40, 'T1', 'INITIATED', 200), hook(45, 'T1', 'INITIATED', 403, { forged: true }), hook(3500, 'T1', 'SUCCESS', 200)],
  };
}

function outcome(run: ClientRun, id: ClientRuleId, strict = false) {
  const t = judgeClient(run, { strict, startedAt: new Date(0).toISOString() }).find((x) => x.parameters.rule === id)!;
  return { state: t.state, findings: t.findings, skip: t.skipReason, text: t.findings.map((f) => f.message).join('\n') };
}

describe('certify-client rules', () => {
  it('registers each rule once with a clause and a source', () => {
    expect(CLIENT_RULES.map((r) => r.id)).toEqual([
      'client.integrator-header',
      'client.token-reuse',
      'client.generate-resend',
      'client.poll-rate',
      'client.busy-retry',
      'client.slip-after-final',
      'client.request-contract',
      'receiver.valid-accepted',
      'receiver.wrong-signature-refused',
    ]);
    for (const r of CLIENT_RULES) expect(r.clause).toMatch(/^(spec|profile|sandbox)#[a-z-]+$/);
    // The registry knows these rules as certify-client's, in this order, with the same metadata.
    expect(rulesOf('certify-client').map((r) => r.id)).toEqual(CLIENT_RULES.map((r) => r.id));
    for (const r of CLIENT_RULES) expect(RULES.get(r.id)).toMatchObject({ source: r.source, clause: r.clause, title: r.title });
  });

  it('turns off a disabled rule: neither run nor filed', () => {
    const ids = judgeClient(goodRun(), {
      strict: false,
      startedAt: new Date(0).toISOString(),
      disabled: ['client.poll-rate', 'receiver.valid-accepted'],
    }).map((t) => t.parameters.rule);
    expect(ids).toHaveLength(CLIENT_RULES.length - 2);
    expect(ids).not.toContain('client.poll-rate');
    expect(ids).not.toContain('receiver.valid-accepted');
  });

  it('passes a well-behaved run on every rule (busy-retry skipped: no 409)', () => {
    const tests = judgeClient(goodRun(), { strict: true, startedAt: new Date(0).toISOString() });
    expect(tests.filter((t) => t.state === 'failed' || t.findings.length > 0).map((t) => t.findings)).toEqual([]);
    expect(tests.filter((t) => t.state === 'skipped').map((t) => t.parameters.rule)).toEqual(['client.busy-retry']);
    expect(tests.every((t) => t.capability === 'client' && t.exchanges.length === t.exchangeCount)).toBe(true);
  });

  it('integrator header: missing on one call fails (spec); another id than the given one fails', () => {
    const run = goodRun();
    run.requests = run.requests.map((r, i) =>
      i === 2
        ? { ...r, headers: { authorization: 'Bearer [token-1]' } }
        : i === 4
          ? { ...r, headers: { ...r.headers, 'x-pay-connect-integrator-id': 'other' } }
          : r,
    );
    const o = outcome(run, 'client.integrator-header');
    expect(o.state).toBe('failed');
    expect(o.findings.map((f) => f.severity)).toEqual(['failure', 'failure']);
    expect(o.text).toMatch(/1 of 11 calls carry no X-Pay-Connect-Integrator-Id header: #\d+ GET \/v1\/pay-connect\/config\//);
    expect(o.text).toMatch(/another integrator id than the one given \(acme\)/);
  });

  it('token reuse: a token per call warns (fails under --strict); renewal after expiry or a 401 is fine', () => {
    const perCall = goodRun();
    perCall.requests = [pair(0), token(10), generate(20, 'T1'), token(30), poll(300, 'T1', 'SUCCESS'), token(310), slip(320, 'T1')];
    expect(outcome(perCall, 'client.token-reuse')).toMatchObject({
      state: 'passed',
      findings: [{ severity: 'warning', check: 'client.token-reuse', clause: 'sandbox#tokens' }],
    });
    expect(outcome(perCall, 'client.token-reuse', true).state).toBe('failed');
    expect(outcome(perCall, 'client.token-reuse').text).toMatch(/^2 of 3 token requests came while the previous token was still valid/);

    const renewed = goodRun();
    renewed.requests = [
      pair(0),
      token(10, 'token-1', '1'),
      generate(20, 'T1'),
      poll(1200, 'T1', 'SUCCESS', { token: 'token-1', status: 401 }),
      token(1210, 'token-2', '1'),
      poll(1300, 'T1', 'SUCCESS', { token: 'token-2' }),
      slip(1400, 'T1', { token: 'token-2' }),
      req(1500, 'GET', '/v1/pay-connect/config/', 401, { token: 'token-2' }),
      token(1510, 'token-3'),
    ];
    expect(outcome(renewed, 'client.token-reuse').findings).toEqual([]);
    // early renewal in the last tenth of the lifetime is fine too
    renewed.requests = [pair(0), token(10, 'token-1', '10'), token(9500, 'token-2', '10')];
    expect(outcome(renewed, 'client.token-reuse').findings).toEqual([]);
  });

  it('token reuse: a token answered 401 used again is a finding', () => {
    const run = goodRun();
    run.requests = [pair(0), token(10), poll(100, 'T1', 'x', { status: 401 }), poll(400, 'T1', 'x', { status: 401 })];
    expect(outcome(run, 'client.token-reuse').text).toMatch(/a token answered 401 was used again/);
  });

  it('generate re-sent without reading the earlier status fails (spec); after a poll or a final webhook it passes', () => {
    const run = goodRun();
    run.requests = [pair(0), token(10), generate(20, 'T1'), generate(40, null, 409), poll(300, 'T1', 'SUCCESS')];
    const o = outcome(run, 'client.generate-resend');
    expect(o).toMatchObject({ state: 'failed', findings: [{ severity: 'failure', clause: 'spec#what-the-service-does' }] });
    expect(o.text).toMatch(/started a transaction again without reading the status of transaction T1/);
    // An INITIATED webhook is not reading the status; a final one is.
    run.deliveries = [hook(25, 'T1', 'INITIATED', 200)];
    expect(outcome(run, 'client.generate-resend').state).toBe('failed');
    run.deliveries = [hook(30, 'T1', 'SUCCESS', 200)];
    expect(outcome(run, 'client.generate-resend').state).toBe('passed');
    run.deliveries = [hook(30, 'T1', 'SUCCESS', 403)];
    expect(outcome(run, 'client.generate-resend').state).toBe('failed');
    run.deliveries = [];
    run.requests = [...run.requests.slice(0, 3), poll(30, 'T1', 'INITIATED'), ...run.requests.slice(3)];
    expect(outcome(run, 'client.generate-resend').state).toBe('passed');
  });

  it('polling: faster than the minimum interval, or no back-off over many polls, warns', () => {
    const tight = goodRun();
    tight.requests = [
      pair(0),
      token(10),
      generate(20, 'T1'),
      ...[40, 60, 80, 100].map((t) => poll(t, 'T1', 'IN_PROGRESS')),
      poll(120, 'T1', 'SUCCESS'),
    ];
    const o = outcome(tight, 'client.poll-rate');
    expect(o.findings.map((f) => f.severity)).toEqual(['warning', 'warning']);
    expect(o.text).toMatch(/4 polls came less than 200 ms after the previous poll/);
    expect(o.text).toMatch(/no back-off/);
    const steady = goodRun();
    steady.requests = [pair(0), token(10), generate(20, 'T1'), ...[300, 600, 900, 1200, 1500].map((t) => poll(t, 'T1', 'IN_PROGRESS'))];
    expect(outcome(steady, 'client.poll-rate').text).toMatch(/^no back-off: .*intervals 300, 300, 300, 300 ms/);
    steady.requests = [pair(0), token(10), generate(20, 'T1'), ...[2000, 4000, 6000, 8000, 10000].map((t) => poll(t, 'T1', 'IN_PROGRESS'))];
    expect(outcome(steady, 'client.poll-rate').findings).toEqual([]);
    const none = goodRun();
    none.requests = none.requests.filter((r) => !r.path!.endsWith('/status/'));
    expect(outcome(none, 'client.poll-rate').skip).toMatch(/polled no status/);
  });

  it('409: a tight retry warns; a retry after a while or after the running one ended is fine', () => {
    const run = goodRun();
    run.requests = [
      pair(0),
      token(10),
      generate(20, 'T1'),
      poll(30, 'T1', 'IN_PROGRESS'),
      generate(40, null, 409),
      generate(60, null, 409),
      generate(80, null, 409),
    ];
    expect(outcome(run, 'client.busy-retry')).toMatchObject({
      state: 'passed',
      findings: [{ severity: 'warning', clause: 'sandbox#transactions' }],
    });
    expect(outcome(run, 'client.busy-retry', true).state).toBe('failed');
    run.requests = [
      pair(0),
      token(10),
      generate(20, 'T1'),
      poll(30, 'T1', 'IN_PROGRESS'),
      generate(40, null, 409),
      poll(300, 'T1', 'SUCCESS'),
      generate(320, 'T2'),
    ];
    expect(outcome(run, 'client.busy-retry').findings).toEqual([]);
    run.requests = [pair(0), token(10), generate(20, 'T1'), poll(30, 'T1', 'IN_PROGRESS'), generate(40, null, 409), generate(900, 'T2')];
    expect(outcome(run, 'client.busy-retry').findings).toEqual([]);
  });

  it('print slip before a final status fails (spec); after a final poll or a final webhook passes', () => {
    const run = goodRun();
    run.requests = [pair(0), token(10), generate(20, 'T1'), slip(30, 'T1'), poll(300, 'T1', 'IN_PROGRESS'), slip(310, 'T1')];
    run.deliveries = [];
    const o = outcome(run, 'client.slip-after-final');
    expect(o).toMatchObject({ state: 'failed', findings: [{ severity: 'failure', clause: 'spec#states-and-transitions' }] });
    expect(o.text).toMatch(/^2 print slips were fetched before/);
    run.deliveries = [hook(25, 'T1', 'SUCCESS', 200)];
    expect(outcome(run, 'client.slip-after-final').state).toBe('passed');
  });

  it('contract: unknown endpoints, a missing bearer, a bad body or content type fail', () => {
    const run = goodRun();
    run.requests = [
      pair(0),
      token(10),
      req(20, 'GET', '/v1/pay-connect/config', 404),
      req(30, 'GET', '/v1/pay-connect/config/', 401, { headers: H }),
      generate(40, null, 400, { body: { amount: '10' } }),
      generate(50, null, 400, { headers: { ...H, authorization: 'Bearer [token-1]', 'content-type': 'text/plain' } }),
    ];
    const o = outcome(run, 'client.request-contract');
    expect(o.state).toBe('failed');
    expect(o.text).toMatch(/1 requests are not an operation of the contract/);
    expect(o.text).toMatch(/1 calls carry no Authorization: Bearer token/);
    expect(o.text).toMatch(/2 request bodies do not match GenerateRequest: .*\/amount must be integer.*content-type "text\/plain"/);
    expect(outcome({ ...run, requests: [] }, 'client.request-contract').text).toMatch(/made no request/);
  });

  it("contract: a constraint of the contract's own (x-ours) is never held against a client; a document's is", () => {
    const run = goodRun();
    const pairWith = (body: Record<string, unknown>) =>
      req(0, 'POST', '/v1/pay-connect/pair/', 200, { body, response: { client_id: 'c1', client_secret: '[REDACTED]' } });
    run.requests = [pairWith({ name: 'n', otp: '123456', webhook_url: 'http://[::1]:9/h' }), token(10), generate(20, 'T1')];
    expect(outcome(run, 'client.request-contract').findings).toEqual([]);
    run.requests = [pairWith({ name: 'n', otp: '12345' }), token(10), generate(20, 'T1')];
    expect(outcome(run, 'client.request-contract').text).toMatch(/request bodies do not match PairRequest: .*\/otp must match pattern/);
  });

  it(
    'webhooks: a genuine delivery refused, as wrongly signed or with a 5xx, fails (as in check-receiver); ' +
      'an accepted forged one fails; no webhook_url skips both',
    () => {
      const run = goodRun();
      run.deliveries = [hook(40, 'T1', 'INITIATED', 500), hook(45, 'T1', 'INITIATED', 200, { forged: true })];
      expect(outcome(run, 'receiver.valid-accepted')).toMatchObject({
        state: 'failed',
        findings: [{ check: 'receiver.valid-accepted', severity: 'failure', clause: 'spec#events' }],
      });
      expect(outcome(run, 'receiver.valid-accepted').text).toMatch(/not answered 2xx/);
      expect(outcome({ ...run, deliveries: [hook(40, 'T1', 'INITIATED', 403)] }, 'receiver.valid-accepted')).toMatchObject({
        state: 'failed',
        findings: [{ severity: 'failure', clause: 'spec#events' }],
      });
      expect(outcome({ ...run, deliveries: [hook(40, 'T1', 'INITIATED', 403)] }, 'receiver.valid-accepted').text).toMatch(
        /refused as wrongly signed/,
      );
      const forged = outcome(run, 'receiver.wrong-signature-refused');
      expect(forged).toMatchObject({ state: 'failed', findings: [{ severity: 'failure', clause: 'spec#events' }] });
      expect(forged.text).toMatch(/accepted a delivery signed with a wrong key/);
      // Deliveries after the client stopped are not held against it.
      run.deliveries = [hook(5000, 'T1', 'SUCCESS', null, { error: 'ECONNREFUSED' })];
      expect(outcome(run, 'receiver.valid-accepted').skip).toMatch(/no webhook delivery/);
      expect(outcome({ ...run, endedAt: 4000, deliveries: [hook(4500, 'T1', 'SUCCESS', 500)] }, 'receiver.valid-accepted').skip).toMatch(
        /no webhook delivery/,
      );
      // One in flight when the client finished, cut off as it exited, neither; one that met a reset
      // while the client still ran is judged.
      const lastRequest = run.requests.at(-1)!.t;
      const cutOff = hook(lastRequest - 5, 'T1', 'CANCELED', null, { error: 'ECONNRESET', durationMs: 20 });
      expect(outcome({ ...run, deliveries: [cutOff] }, 'receiver.valid-accepted').skip).toMatch(/no webhook delivery/);
      const reset = hook(lastRequest - 30, 'T1', 'CANCELED', null, { error: 'ECONNRESET', durationMs: 20 });
      expect(outcome({ ...run, deliveries: [reset] }, 'receiver.valid-accepted').text).toMatch(/not answered 2xx: .*→ ECONNRESET/);
      run.deliveries = [hook(40, 'T1', 'INITIATED', null, { forged: true, error: 'ECONNREFUSED' })];
      expect(outcome(run, 'receiver.wrong-signature-refused').skip).toMatch(/ECONNREFUSED/);
      const polling = goodRun();
      polling.requests = [pair(0, false), ...polling.requests.slice(1)];
      expect(outcome(polling, 'receiver.valid-accepted').skip).toMatch(/gave no webhook_url/);
      expect(outcome(polling, 'receiver.wrong-signature-refused').skip).toMatch(/gave no webhook_url/);
    },
  );
});
