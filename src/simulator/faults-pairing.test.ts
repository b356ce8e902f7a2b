/**
 * Fault switches of pairing, tokens, configuration and generate's inputs: each changes exactly what
 * it names, and the normal behaviour is back once it is switched off.
 */
import { describe, expect, it } from 'vitest';
import type { FaultId } from './faults.ts';
import { P, pairClient, pay, sleep, useFaultSims, waitFinal, type Client, type Res, type TestSim } from './testkit.ts';

let t: TestSim;
useFaultSims([{}], ([s]) => (t = s!));

const withFault = (id: FaultId) => t.sim.setFaults([id]);
const off = () => t.sim.setFaults([]);
const INTEGRATOR = { 'x-pay-connect-integrator-id': 'i' };
const pair = (otp: string, name = 'n'): Promise<Res> => t.http.call('POST', P.pair, { headers: INTEGRATOR, body: { name, otp } });
const tokenFor = (clientId: string, clientSecret: string, headers: Record<string, string> = {}): Promise<Res> =>
  t.http.call('POST', P.token, { headers, body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });

describe('token faults', () => {
  it('auth.any-secret-accepted gives a known client_id a token for any secret; unknown ids stay refused', async () => {
    const c = await pairClient(t);
    const id = c.pairing.client_id as string;
    expect((await tokenFor(id, 'wrong')).status).toBe(401);
    withFault('auth.any-secret-accepted');
    const tok = await tokenFor(id, 'wrong');
    expect(tok.status).toBe(200);
    expect((await c.get(P.config, { authorization: `Bearer ${tok.json.access_token}` })).json.terminal_id).toBe(c.pairing.terminal_id);
    expect((await tokenFor('no-such-client', 'wrong')).status).toBe(401);
    off();
    expect((await tokenFor(id, 'wrong')).status).toBe(401);
  });

  it('auth.credentials-survive-unpair: unpaired credentials still get a token, which answers 401', async () => {
    const c = await pairClient(t);
    withFault('auth.credentials-survive-unpair');
    expect((await c.post(P.unpair)).status).toBe(200);
    expect((await c.get(P.config)).status).toBe(401); // the old token is revoked as usual
    const tok = await c.login();
    expect(tok.status).toBe(200);
    expect((await c.get(P.config, { authorization: `Bearer ${tok.json.access_token}` })).status).toBe(401);
    off();
    const d = await pairClient(t);
    expect((await d.post(P.unpair)).status).toBe(200);
    expect((await d.login()).status).toBe(401);
  });

  it('token.expires-early: the token dies after 1 s while expires_in still says 3600', async () => {
    const c = await pairClient(t);
    withFault('token.expires-early');
    const early = await c.login();
    expect(early.json).toEqual({ access_token: expect.any(String), expires_in: '3600', token_type: 'Bearer', scope: 'default' });
    const bearer = (tok: Res) => ({ authorization: `Bearer ${tok.json.access_token}` });
    expect((await c.get(P.config, bearer(early))).status).toBe(200);
    off();
    const normal = await c.login();
    await sleep(1100);
    expect((await c.get(P.config, bearer(early))).status).toBe(401);
    expect((await c.get(P.config, bearer(normal))).status).toBe(200);
  });

  it('token.dies-early: the token dies 0.3 s after issue while expires_in still says 3600', async () => {
    const c = await pairClient(t);
    withFault('token.dies-early');
    const early = await c.login();
    expect(early.json).toMatchObject({ expires_in: '3600' });
    const bearer = { authorization: `Bearer ${early.json.access_token}` };
    expect((await c.get(P.config, bearer)).status).toBe(200);
    await sleep(400);
    expect((await c.get(P.config, bearer)).status).toBe(401);
    off();
  });

  it('auth.token-refuses-integrator answers 400 with the integrator header, 200 without it', async () => {
    const c = await pairClient(t);
    const [id, secret] = [c.pairing.client_id as string, c.pairing.client_secret as string];
    expect((await tokenFor(id, secret, INTEGRATOR)).status).toBe(200);
    withFault('auth.token-refuses-integrator');
    const r = await tokenFor(id, secret, INTEGRATOR);
    expect(r.status).toBe(400);
    expect(r.json.detail).toEqual(expect.any(String));
    expect((await c.login()).status).toBe(200);
    off();
    expect((await tokenFor(id, secret, INTEGRATOR)).status).toBe(200);
  });
});

describe('pairing faults', () => {
  const BAD = ['12345', '1234567', 'abcdef', '', '000000'];

  it('pair.bad-otp-accepted pairs malformed and never-valid OTPs; a consumed one is still refused', async () => {
    const otp = t.sim.mintOtp();
    expect((await pair(otp)).status).toBe(200);
    withFault('pair.bad-otp-accepted');
    for (const bad of BAD) {
      const r = await pair(bad);
      expect(r.status, bad).toBe(200);
      expect(r.json.client_id).toEqual(expect.any(String));
    }
    expect((await pair(otp)).status).toBe(400);
    off();
    for (const bad of BAD) expect((await pair(bad)).status, bad).toBe(400);
  });

  it('pair.bad-otp-401 refuses malformed and never-valid OTPs with 401; a consumed one stays 400', async () => {
    const otp = t.sim.mintOtp();
    expect((await pair(otp)).status).toBe(200);
    withFault('pair.bad-otp-401');
    for (const bad of BAD) {
      const r = await pair(bad);
      expect(r.status, bad).toBe(401);
      expect(r.json.detail).toEqual(expect.any(String));
    }
    expect((await pair(otp)).status).toBe(400);
    expect((await pair(t.sim.mintOtp())).status).toBe(200);
    off();
    for (const bad of BAD) expect((await pair(bad)).status, bad).toBe(400);
  });

  it('pair.shared-pay-connect-id answers one pay_connect_id for every pairing; the rest stays distinct', async () => {
    withFault('pair.shared-pay-connect-id');
    const a = (await pair(t.sim.mintOtp())).json;
    const b = (await pair(t.sim.mintOtp())).json;
    expect(a.pay_connect_id).toBe(b.pay_connect_id);
    expect(a.terminal_id).not.toBe(b.terminal_id);
    expect(a.client_id).not.toBe(b.client_id);
    off();
    const c = (await pair(t.sim.mintOtp())).json;
    expect(c.pay_connect_id).not.toBe(a.pay_connect_id);
  });

  it('pair.shared-terminal-id gives new terminals one terminal_id; they stay separate terminals', async () => {
    withFault('pair.shared-terminal-id');
    const a = await pairClient(t);
    const b = await pairClient(t);
    expect(a.pairing.terminal_id).toBe(b.pairing.terminal_id);
    expect(a.pairing.client_id).not.toBe(b.pairing.client_id);
    expect((await b.get(P.config)).json.terminal_id).toBe(b.pairing.terminal_id);
    const s = await pay(a, 1000);
    expect((await b.get(P.status(s.transaction_id))).status).toBe(404);
    off();
    const c = await pairClient(t);
    expect(c.pairing.terminal_id).not.toBe(a.pairing.terminal_id);
  });

  it("config.other-terminal-id: the configuration names another terminal than the pairing's", async () => {
    const c = await pairClient(t);
    withFault('config.other-terminal-id');
    const cfg = (await c.get(P.config)).json;
    expect(cfg.terminal_id).toEqual(expect.any(String));
    expect(cfg.terminal_id).not.toBe(c.pairing.terminal_id);
    const s = await pay(c, 1000);
    expect((await c.get(P.slip(s.transaction_id))).json.terminal_id).toBe(c.pairing.terminal_id);
    off();
    expect((await c.get(P.config)).json.terminal_id).toBe(c.pairing.terminal_id);
  });

  it('unpair.refused answers 400 and revokes nothing', async () => {
    const c = await pairClient(t);
    withFault('unpair.refused');
    const r = await c.post(P.unpair);
    expect(r.status).toBe(400);
    expect(r.json.detail).toEqual(expect.any(String));
    expect((await c.get(P.config)).status).toBe(200);
    expect((await c.login()).status).toBe(200);
    off();
    expect((await c.post(P.unpair)).status).toBe(200);
    expect((await c.get(P.config)).status).toBe(401);
  });
});

describe('configuration faults', () => {
  it('config.no-card drops CARD from payment_methods only', async () => {
    const c = await pairClient(t);
    const good = (await c.get(P.config)).json;
    withFault('config.no-card');
    const bad = (await c.get(P.config)).json;
    expect(bad.payment_methods.map((m: { id: string }) => m.id)).toEqual(['MBILLS', 'PAYCONIQ']);
    expect({ ...bad, payment_methods: null }).toEqual({ ...good, payment_methods: null });
    off();
    expect((await c.get(P.config)).json).toEqual(good);
  });

  it('config.wrong-timezone changes the timezone of the configuration and the slips alike', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    const good = (await c.get(P.config)).json;
    const slip = (await c.get(P.slip(s.transaction_id))).json;
    withFault('config.wrong-timezone');
    const cfg = (await c.get(P.config)).json;
    expect(cfg).toEqual({ ...good, timezone: 'Europe/Vienna' });
    expect((await c.get(P.slip(s.transaction_id))).json).toEqual({ ...slip, timezone: 'Europe/Vienna' });
    off();
    expect((await c.get(P.config)).json.timezone).toBe('Europe/Ljubljana');
  });
});

describe("faults of generate's inputs", () => {
  /** Starts a transaction with `body` and waits for its final record. */
  async function run(c: Client, body: Record<string, unknown>, path: string = P.generate): Promise<Res['json']> {
    const r = await c.post(path, body);
    expect(r.status, r.text).toBe(200);
    return waitFinal(c, r.json.transaction_id);
  }

  it('generate.listed-method-refused answers 400 for PAYCONIQ only', async () => {
    const c = await pairClient(t);
    withFault('generate.listed-method-refused');
    const r = await c.post(P.generate, { amount: 1000, payment_method: 'PAYCONIQ' });
    expect(r.status).toBe(400);
    expect(r.json.detail).toEqual(expect.any(String));
    expect((await run(c, { amount: 1000, payment_method: 'MBILLS' })).payment_method).toBe('MBILLS');
    off();
    expect((await run(c, { amount: 1000, payment_method: 'PAYCONIQ' })).payment_method).toBe('PAYCONIQ');
  });

  it('generate.unknown-method-accepted takes an unknown method as none sent (the customer picks CARD)', async () => {
    const c = await pairClient(t);
    expect((await c.post(P.generate, { amount: 1000, payment_method: 'CASH' })).status).toBe(400);
    withFault('generate.unknown-method-accepted');
    expect(await run(c, { amount: 1000, payment_method: 'CASH' })).toMatchObject({ status: 'SUCCESS', payment_method: 'CARD' });
    expect((await run(c, { amount: 1000, payment_method: 'MBILLS' })).payment_method).toBe('MBILLS');
    off();
    expect((await c.post(P.generate, { amount: 1000, payment_method: 'CASH' })).status).toBe(400);
  });

  it('generate.payment-method-ignored records CARD whatever listed method was sent', async () => {
    const c = await pairClient(t);
    withFault('generate.payment-method-ignored');
    expect((await run(c, { amount: 1000, payment_method: 'MBILLS' })).payment_method).toBe('CARD');
    expect((await c.post(P.generate, { amount: 1000, payment_method: 'CASH' })).status).toBe(400);
    off();
    expect((await run(c, { amount: 1000, payment_method: 'MBILLS' })).payment_method).toBe('MBILLS');
  });

  it('transaction.client-id-dropped records client_transaction_id as null on every kind of start', async () => {
    const c = await pairClient(t);
    withFault('transaction.client-id-dropped');
    expect((await run(c, { amount: 1000, client_transaction_id: 'pos-1' })).client_transaction_id).toBeNull();
    const paid = await run(c, { amount: 1000 });
    expect((await run(c, { amount: 100, client_transaction_id: 'pos-2' }, P.refund)).client_transaction_id).toBeNull();
    expect(
      (await run(c, { amount: 100, client_transaction_id: 'pos-3' }, P.linkedRefund(paid.transaction_id))).client_transaction_id,
    ).toBeNull();
    expect((await c.post(P.generate, { amount: 1000, client_transaction_id: 5 })).status).toBe(400); // still validated
    off();
    expect((await run(c, { amount: 1000, client_transaction_id: 'pos-4' })).client_transaction_id).toBe('pos-4');
  });
});
