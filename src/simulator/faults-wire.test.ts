/**
 * Fault switches that act on single answers (slips, tokens, config, pairing, references, auth,
 * content types, error ids, the rate limit of status reads): each changes exactly what it names, and
 * nothing else around it.
 */
import { describe, expect, it } from 'vitest';
import type { FaultId } from './faults.ts';
import { P, pairClient, pay, pollUntil, sleep, startTestSim, useFaultSims, waitOperation, type TestSim } from './testkit.ts';

let t: TestSim;
useFaultSims([{}], ([s]) => (t = s!));

const withFault = (id: FaultId) => t.sim.setFaults([id]);

/** Top-level keys whose JSON differs between two objects (missing keys included). */
function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}

describe('print slip faults', () => {
  const cases: [FaultId, string[], (slip: Record<string, unknown>) => void][] = [
    ['slip.missing-digital-slip', ['digital_slip'], (s) => expect(s).not.toHaveProperty('digital_slip')],
    ['slip.amount-as-string', ['amount'], (s) => expect(s.amount).toBe('1057')],
    ['slip.bad-created-at', ['created_at'], (s) => expect(s.created_at).toBe('22/11/2026 10:00')],
    ['slip.bad-digital-slip-uri', ['digital_slip'], (s) => expect(s.digital_slip).toBe('not a url')],
    ['slip.total-mismatch', ['total_amount'], (s) => expect(s.total_amount).toBe(1057 + 100 + 1)],
    ['slip.bad-currency', ['currency'], (s) => expect(s.currency).toBe('euro')],
    ['slip.bad-country', ['organization'], (s) => expect((s.organization as { country: string }).country).toBe('SVN')],
    ['slip.status-outside-enum', ['status'], (s) => expect(s.status).toBe('COMPLETED')],
    ['slip.bad-payment-method', ['payment_method'], (s) => expect(s.payment_method).toBe('CASH')],
    ['slip.bad-tag', ['tags'], (s) => expect(s.tags).toEqual(['sale'])],
    ['slip.currency-disagrees-config', ['currency'], (s) => expect(s.currency).toBe('USD')],
    ['slip.wrong-transaction-id', ['transaction_id'], (s) => expect(s.transaction_id).toMatch(/^[0-9a-f-]{36}$/)],
    ['slip.wrong-terminal-id', ['terminal_id'], (s) => expect(s.terminal_id).toMatch(/^9/)],
  ];
  it.each(cases)('%s changes only %j of the slip', async (id, keys, check) => {
    const c = await pairClient(t);
    const s = await pay(c, 1057);
    const good = (await c.get(P.slip(s.transaction_id))).json;
    withFault(id);
    const bad = await c.get(P.slip(s.transaction_id));
    expect(bad.status).toBe(200);
    check(bad.json);
    expect(changedKeys(good, bad.json)).toEqual(keys);
    expect((await c.get(P.status(s.transaction_id))).json).toEqual(s);
    expect((await c.get(P.config)).json.currency).toBe('EUR');
  });

  it('slip.nonfinal-200 answers 200 for a non-final transaction only', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    const good = (await c.get(P.slip(s.transaction_id))).json;
    const pending = (await c.post(P.generate, { amount: 1055 })).json.transaction_id;
    expect((await c.get(P.slip(pending))).status).toBe(400);
    withFault('slip.nonfinal-200');
    const r = await c.get(P.slip(pending));
    expect(r.status).toBe(200);
    expect(r.json.status).toBe('INITIATED');
    expect((await c.get(P.slip(s.transaction_id))).json).toEqual(good);
    await c.post(P.cancel(pending));
  });
});

describe('token, config and pairing faults', () => {
  it('token.expires-in-number and token.type-lowercase change only their field', async () => {
    const c = await pairClient(t);
    withFault('token.expires-in-number');
    expect((await c.login()).json).toEqual({ access_token: expect.any(String), expires_in: 3600, token_type: 'Bearer', scope: 'default' });
    withFault('token.type-lowercase');
    expect((await c.login()).json).toEqual({
      access_token: expect.any(String),
      expires_in: '3600',
      token_type: 'bearer',
      scope: 'default',
    });
  });

  it('token.refused answers 401 to the credentials of a live pairing; a malformed body is still 400', async () => {
    const c = await pairClient(t);
    expect((await c.login()).status).toBe(200);
    withFault('token.refused');
    const refused = await c.login();
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ detail: expect.any(String) });
    expect((await t.http.call('POST', P.token, { body: { grant_type: 'password' } })).status).toBe(400);
  });

  it('config.missing-payment-methods drops only payment_methods', async () => {
    const c = await pairClient(t);
    const good = (await c.get(P.config)).json;
    withFault('config.missing-payment-methods');
    const bad = (await c.get(P.config)).json;
    expect(changedKeys(good, bad)).toEqual(['payment_methods']);
    expect(bad).not.toHaveProperty('payment_methods');
    expect((await c.post(P.generate, { amount: 100, payment_method: 'CASH' })).status).toBe(400);
  });

  it('pair.missing-webhook-key drops the field, with or without webhook_url', async () => {
    withFault('pair.missing-webhook-key');
    for (const extra of [{}, { webhook_url: 'http://127.0.0.1:9/x' }]) {
      const r = await t.http.call('POST', P.pair, {
        headers: { 'x-pay-connect-integrator-id': 'i' },
        body: { name: 'n', otp: t.sim.mintOtp(), ...extra },
      });
      expect(r.status).toBe(200);
      expect(Object.keys(r.json).sort()).toEqual(['client_id', 'client_secret', 'pay_connect_id', 'pay_connect_name', 'terminal_id']);
    }
  });

  it('generate.server-error answers 500 with a JSON error and starts no transaction', async () => {
    const c = await pairClient(t);
    withFault('generate.server-error');
    const r = await c.post(P.generate, { amount: 1000 });
    expect(r.status).toBe(500);
    expect(typeof r.json.detail).toBe('string');
    t.sim.setFaults([]);
    expect((await c.post(P.generate, { amount: 1000 })).status).toBe(200);
  });

  it('generate.server-error at a fault rate of 0.5 answers 500 to some generates and starts the others', async () => {
    const flaky = await startTestSim({ faults: ['generate.server-error'], faultRate: 0.5, seed: 11 });
    try {
      const c = await pairClient(flaky);
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) {
        const r = await c.post(P.generate, { amount: 1000 });
        statuses.push(r.status);
        if (r.status === 200) await pollUntil(c, P.status(r.json.transaction_id as string), (x) => x.status === 'SUCCESS');
      }
      expect(statuses.filter((x) => x === 500).length).toBeGreaterThan(0);
      expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(0);
      expect(statuses.every((x) => x === 200 || x === 500)).toBe(true);
    } finally {
      await flaky.close();
    }
  });

  it('pair.name-not-echoed answers another pay_connect_name than the name sent', async () => {
    withFault('pair.name-not-echoed');
    const r = await t.http.call('POST', P.pair, {
      headers: { 'x-pay-connect-integrator-id': 'i' },
      body: { name: 'Front desk', otp: t.sim.mintOtp() },
    });
    expect(r.status).toBe(200);
    expect(r.json.pay_connect_name).not.toBe('Front desk');
    expect(typeof r.json.pay_connect_name).toBe('string');
  });

  it('issuedSecrets lists the client secret, webhook key and tokens handed out', async () => {
    const r = await t.http.call('POST', P.pair, {
      headers: { 'x-pay-connect-integrator-id': 'i' },
      body: { name: 'n', otp: t.sim.mintOtp(), webhook_url: 'http://127.0.0.1:9/x' },
    });
    const tok = await t.http.call('POST', P.token, {
      body: { grant_type: 'client_credentials', client_id: r.json.client_id, client_secret: r.json.client_secret },
    });
    expect(tok.status).toBe(200);
    const issued = t.sim.issuedSecrets();
    for (const v of [r.json.client_secret, r.json.webhook_secret_key, tok.json.access_token]) expect(issued).toContain(v);
  });

  it('pair.otp-reuse lets a consumed OTP pair again, but 000000 and malformed ones still fail', async () => {
    const pair = (otp: string) =>
      t.http.call('POST', P.pair, { headers: { 'x-pay-connect-integrator-id': 'i' }, body: { name: 'n', otp } });
    const otp = t.sim.mintOtp();
    expect((await pair(otp)).status).toBe(200);
    expect((await pair(otp)).status).toBe(400);
    withFault('pair.otp-reuse');
    const again = await pair(otp);
    expect(again.status).toBe(200);
    expect((await pair('000000')).status).toBe(400);
    expect((await pair('12345')).status).toBe(400);
  });
});

describe('reference faults', () => {
  it('generate.missing-transaction-id answers {} but still starts the transaction', async () => {
    const c = await pairClient(t);
    withFault('generate.missing-transaction-id');
    const r = await c.post(P.generate, { amount: 1055 });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({});
    expect((await c.post(P.generate, { amount: 100 })).status).toBe(409);
    t.sim.setFaults([]);
    const refund = await c.post(P.refund, { amount: 100 });
    expect(refund.status).toBe(409);
  });

  it('operation.missing-operation-id hides operation_id on increment, complete and revert; operations still run', async () => {
    const c = await pairClient(t);
    const pre = (await pay(c, 1000, P.preauth)).transaction_id;
    withFault('operation.missing-operation-id');
    for (const [path, body] of [
      [P.increment(pre), { amount: 10 }],
      [P.complete(pre), { amount: 1010 }],
    ] as const) {
      const r = await c.post(path, body);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ transaction_id: pre });
    }
    await pollUntil(c, P.status(pre), (j) => j.amount === 1010);
    const r = await c.post(P.revert(pre));
    expect(r.json).toEqual({ transaction_id: pre });
    await pollUntil(c, P.status(pre), (j) => j.status === 'REVERTED');
    expect((await c.post(P.generate, { amount: 100 })).json).toHaveProperty('transaction_id');
  });
});

describe('auth faults', () => {
  it('auth.bearer-not-enforced acts without Authorization as the latest pairing; bad tokens stay 401', async () => {
    const c = await pairClient(t, { integratorId: 'int-bearer' });
    const h = { 'x-pay-connect-integrator-id': 'int-bearer' };
    expect((await t.http.call('GET', P.config, { headers: h })).status).toBe(401);
    withFault('auth.bearer-not-enforced');
    const r = await t.http.call('GET', P.config, { headers: h });
    expect(r.status).toBe(200);
    expect(r.json.terminal_id).toBe(c.pairing.terminal_id);
    expect((await t.http.call('GET', P.config, { headers: { ...h, authorization: 'Bearer nope' } })).status).toBe(401);
  });

  it('auth.invalid-token-accepted maps unknown tokens to the latest pairing; no token stays 401', async () => {
    const c = await pairClient(t, { integratorId: 'int-invalid' });
    const h = { 'x-pay-connect-integrator-id': 'int-invalid' };
    withFault('auth.invalid-token-accepted');
    const r = await t.http.call('GET', P.config, { headers: { ...h, authorization: 'Bearer made-up' } });
    expect(r.status).toBe(200);
    expect(r.json.terminal_id).toBe(c.pairing.terminal_id);
    expect((await t.http.call('GET', P.config, { headers: h })).status).toBe(401);
  });

  it('auth.integrator-not-enforced accepts a missing or other integrator id; the token is still needed', async () => {
    const c = await pairClient(t);
    withFault('auth.integrator-not-enforced');
    expect((await t.http.call('GET', P.config, { headers: { authorization: `Bearer ${c.token}` } })).status).toBe(200);
    expect((await c.get(P.config, { 'x-pay-connect-integrator-id': 'someone-else' })).status).toBe(200);
    expect((await t.http.call('GET', P.config, { headers: { 'x-pay-connect-integrator-id': c.integratorId } })).status).toBe(401);
  });

  it('auth.token-requires-integrator answers 400 without the header, 200 with it', async () => {
    const c = await pairClient(t);
    withFault('auth.token-requires-integrator');
    expect((await c.login()).status).toBe(400);
    const body = { grant_type: 'client_credentials', client_id: c.pairing.client_id, client_secret: c.pairing.client_secret };
    expect((await t.http.call('POST', P.token, { headers: { 'x-pay-connect-integrator-id': 'x' }, body })).status).toBe(200);
  });

  it('auth.unpair-not-revoking keeps tokens working after unpair; credentials are still revoked', async () => {
    const c = await pairClient(t);
    withFault('auth.unpair-not-revoking');
    expect((await c.post(P.unpair)).status).toBe(200);
    expect((await c.get(P.config)).status).toBe(200);
    expect((await pay(c, 1000)).status).toBe('SUCCESS');
    expect((await c.login()).status).toBe(401);
  });
});

describe('wire faults', () => {
  it('status.unknown-id-500 answers 500 for unknown ids only', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    withFault('status.unknown-id-500');
    for (const r of [await c.get(P.status('x')), await c.get(P.slip('x')), await c.post(P.cancel('x')), await c.get(P.operation('x'))]) {
      expect(r.status).toBe(500);
      expect(r.json.detail).toEqual(expect.any(String));
    }
    expect((await c.get(P.status(s.transaction_id))).status).toBe(200);
    expect((await c.get('/v1/pay-connect/nothing/')).status).toBe(404);
  });

  it('content-type.text-plain serves JSON successes as text/plain; errors stay JSON', async () => {
    const c = await pairClient(t);
    withFault('content-type.text-plain');
    const r = await c.get(P.config);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.json.currency).toBe('EUR');
    expect((await c.get(P.status('x'))).headers['content-type']).toBe('application/json');
  });

  it('poll.rate-limited answers 429 with Retry-After: 1 past 5 status reads a second per pairing, and serves again after the wait', async () => {
    const [a, b] = [await pairClient(t), await pairClient(t)];
    const s = await pay(a, 1000);
    const pre = (await pay(a, 1000, P.preauth)).transaction_id;
    const op = (await a.post(P.increment(pre), { amount: 100 })).json.operation_id as string;
    await waitOperation(a, op);
    withFault('poll.rate-limited');
    const reads = [P.status(s.transaction_id), P.operation(op), P.status('x'), P.status(s.transaction_id), P.operation(op)];
    const served = await Promise.all(reads.map((p) => a.get(p)));
    expect(served.map((r) => r.status)).toEqual([200, 200, 404, 200, 200]);
    const refused = await a.get(P.status(s.transaction_id));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json).toEqual({ detail: expect.any(String) });
    expect((await a.get(P.operation(op))).status).toBe(429);
    // Only status reads are limited, and per pairing.
    expect((await a.get(P.config)).status).toBe(200);
    expect((await a.get(P.slip(s.transaction_id))).status).toBe(200);
    expect((await b.get(P.status('y'))).status).toBe(404);
    await sleep(1000);
    expect((await a.get(P.status(s.transaction_id))).json).toEqual(s);
  });

  it('error.non-json serves error bodies as plain text; successes stay JSON', async () => {
    const c = await pairClient(t);
    withFault('error.non-json');
    const r = await c.get(P.status('x'));
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.json).toBeNull();
    expect(r.text.length).toBeGreaterThan(0);
    expect((await c.get(P.config)).headers['content-type']).toBe('application/json');
  });
});

describe('setFaults', () => {
  it('refuses unknown ids and changes nothing', async () => {
    withFault('slow');
    expect(() => t.sim.setFaults(['nope' as FaultId])).toThrow(/simulator fault "nope" is not a fault switch/);
    expect(t.sim.faults).toEqual(['slow']);
    const c = await pairClient(t);
    const r = await c.post(P.generate, { amount: 1000 });
    expect(r.status).toBe(200);
  });
});
