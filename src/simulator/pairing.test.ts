/** sandbox#pairing, #tokens, #isolation, #configuration over real loopback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P, pairClient, pay, sleep, startTestSim, waitOperation, type TestSim } from './testkit.ts';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(() => t.close());

const pairReq = (body: unknown, integrator: string | null = 'sim-integrator') =>
  t.http.call('POST', P.pair, { headers: integrator === null ? {} : { 'x-pay-connect-integrator-id': integrator }, body });

describe('pairing', () => {
  it('answers the pairing result, echoing the name, with a null webhook key without webhook_url', async () => {
    const r = await pairReq({ name: 'Till 1', otp: t.sim.mintOtp() });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(Object.keys(r.json).sort()).toEqual([
      'client_id',
      'client_secret',
      'pay_connect_id',
      'pay_connect_name',
      'terminal_id',
      'webhook_secret_key',
    ]);
    expect(r.json.pay_connect_name).toBe('Till 1');
    expect(r.json.webhook_secret_key).toBeNull();
    for (const k of ['client_id', 'client_secret', 'pay_connect_id', 'terminal_id']) expect(r.json[k]).toMatch(/.+/);
  });

  it('gives a non-empty webhook key with webhook_url, and a fresh terminal per pairing', async () => {
    const a = await pairReq({ name: 'a', otp: t.sim.mintOtp(), webhook_url: 'http://127.0.0.1:9/hooks' });
    const b = await pairReq({ name: 'b', otp: t.sim.mintOtp(), webhook_url: 'https://example.com/x' });
    expect(typeof a.json.webhook_secret_key).toBe('string');
    expect(a.json.webhook_secret_key.length).toBeGreaterThan(10);
    expect(a.json.terminal_id).not.toBe(b.json.terminal_id);
    expect(a.json.client_id).not.toBe(b.json.client_id);
    expect(a.json.webhook_secret_key).not.toBe(b.json.webhook_secret_key);
  });

  it('accepts any six-digit OTP but 000000 exactly once', async () => {
    expect((await pairReq({ name: 'x', otp: '000001' })).status).toBe(200);
    const again = await pairReq({ name: 'x', otp: '000001' });
    expect(again.status).toBe(400);
    expect(again.json.detail).toMatch(/used/);
    const minted = t.sim.mintOtp();
    expect(minted).toMatch(/^[0-9]{6}$/);
    expect((await pairReq({ name: 'x', otp: minted })).status).toBe(200);
    expect((await pairReq({ name: 'x', otp: minted })).status).toBe(400);
  });

  it.each([['000000'], ['12345'], ['1234567'], ['abcdef'], ['12 456'], [123456], [null]])('refuses OTP %j with 400', async (otp) => {
    const r = await pairReq({ name: 'x', otp });
    expect(r.status).toBe(400);
    expect(typeof r.json.detail).toBe('string');
  });

  it('needs the integrator header, a name, a valid webhook_url, and burns no OTP on such errors', async () => {
    const otp = t.sim.mintOtp();
    expect((await pairReq({ name: 'x', otp }, null)).status).toBe(400);
    expect((await pairReq({ otp })).status).toBe(400);
    expect((await pairReq({ name: 7, otp })).status).toBe(400);
    expect((await pairReq({ name: 'x', otp, webhook_url: 'ftp://x' })).status).toBe(400);
    expect((await pairReq({ name: 'x', otp, webhook_url: 'no url' })).status).toBe(400);
    expect((await pairReq({ name: 'x', otp })).status).toBe(200);
  });

  it('binds the integrator id: missing header 400, another id 401, own id 200', async () => {
    const c = await pairClient(t, { integratorId: 'integrator-A' });
    expect((await c.get(P.config)).status).toBe(200);
    const missing = await t.http.call('GET', P.config, { headers: { authorization: `Bearer ${c.token}` } });
    expect(missing.status).toBe(400);
    expect((await c.get(P.config, { 'x-pay-connect-integrator-id': 'integrator-B' })).status).toBe(401);
  });
});

describe('tokens', () => {
  it('answers the token result with expires_in as a decimal string of seconds', async () => {
    const c = await pairClient(t);
    const r = await c.login();
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ access_token: expect.any(String), expires_in: '3600', token_type: 'Bearer', scope: 'default' });
    expect(r.json.access_token).not.toBe(c.token);
  });

  it('works with and without the integrator header, and with form encoding', async () => {
    const c = await pairClient(t);
    const body = { grant_type: 'client_credentials', client_id: c.pairing.client_id, client_secret: c.pairing.client_secret };
    const withHeader = await t.http.call('POST', P.token, { headers: { 'x-pay-connect-integrator-id': 'whatever' }, body });
    expect(withHeader.status).toBe(200);
    const form = await t.http.call('POST', P.token, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body as Record<string, string>).toString(),
    });
    expect(form.status).toBe(200);
    expect(form.json.token_type).toBe('Bearer');
  });

  it('refuses bad grants (400) and bad credentials (401)', async () => {
    const c = await pairClient(t);
    const id = c.pairing.client_id;
    const call = (body: unknown) => t.http.call('POST', P.token, { body });
    expect((await call({ grant_type: 'password', client_id: id, client_secret: c.pairing.client_secret })).status).toBe(400);
    expect((await call({ client_id: id, client_secret: c.pairing.client_secret })).status).toBe(400);
    expect((await call({ grant_type: 'client_credentials', client_id: id })).status).toBe(400);
    expect((await call({ grant_type: 'client_credentials', client_id: id, client_secret: 'wrong' })).status).toBe(401);
    expect((await call({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' })).status).toBe(401);
  });

  it('answers 401 to a missing, malformed or unknown bearer token', async () => {
    const c = await pairClient(t);
    const h = { 'x-pay-connect-integrator-id': c.integratorId };
    expect((await t.http.call('GET', P.config, { headers: h })).status).toBe(401);
    expect((await t.http.call('GET', P.config, { headers: { ...h, authorization: c.token } })).status).toBe(401);
    expect((await t.http.call('GET', P.config, { headers: { ...h, authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await t.http.call('GET', P.config, { headers: { ...h, authorization: `bearer ${c.token}` } })).status).toBe(200);
  });

  it('expires tokens after their lifetime', async () => {
    const short = await startTestSim({ tokenLifetimeSec: 1 });
    try {
      const c = await pairClient(short);
      expect((await c.login()).json.expires_in).toBe('1');
      expect((await c.get(P.config)).status).toBe(200);
      await sleep(1100);
      expect((await c.get(P.config)).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('unpair', () => {
  it('answers 200 without a body and revokes tokens and credentials', async () => {
    const c = await pairClient(t);
    const r = await c.post(P.unpair);
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect((await c.get(P.config)).status).toBe(401);
    expect([400, 401]).toContain((await c.login()).status);
    expect((await c.post(P.unpair)).status).toBe(401);
  });
});

describe('isolation', () => {
  it("answers 404 for another pairing's transaction and operation ids", async () => {
    const a = await pairClient(t);
    const b = await pairClient(t);
    const done = await pay(a, 1000);
    const id = done.transaction_id;
    const op = await a.post(P.revert(id));
    expect(op.status).toBe(200);
    await waitOperation(a, op.json.operation_id);
    for (const r of [
      await b.get(P.status(id)),
      await b.get(P.slip(id)),
      await b.post(P.cancel(id)),
      await b.post(P.linkedRefund(id), { amount: 1 }),
      await b.post(P.revert(id)),
      await b.post(P.increment(id), { amount: 1 }),
      await b.post(P.complete(id), { amount: 1 }),
      await b.get(P.operation(op.json.operation_id)),
    ]) {
      expect(r.status).toBe(404);
      expect(typeof r.json.detail).toBe('string');
    }
    expect((await a.get(P.status(id))).json.status).toBe('REVERTED');
  });
});

describe('configuration', () => {
  it('answers EUR, Europe/Ljubljana, language, version, terminal id and methods including CARD', async () => {
    const c = await pairClient(t);
    const r = await c.get(P.config);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ currency: 'EUR', timezone: 'Europe/Ljubljana', terminal_id: c.pairing.terminal_id });
    expect(typeof r.json.default_language).toBe('string');
    expect(typeof r.json.version).toBe('string');
    const ids = r.json.payment_methods.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['CARD', 'MBILLS', 'PAYCONIQ']));
    for (const m of r.json.payment_methods) {
      expect(m).toEqual({ id: expect.any(String), name: expect.any(String), group: { id: expect.any(String), name: expect.any(String) } });
    }
  });
});
