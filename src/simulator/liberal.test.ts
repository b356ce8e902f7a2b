/**
 * The liberal sandbox (liberties.ts): each liberty observable on the wire, every answer still matching
 * the contract (the test caller checks it), and the default simulator answering as it always did.
 */
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localStamp, LIBERAL_CLOCK_SKEW_MS } from './liberal.ts';
import {
  P,
  pairClient,
  sleep,
  startReceiver,
  startTestSim,
  waitFinal,
  type Client,
  type Delivery,
  type Receiver,
  type TestSim,
} from './testkit.ts';

let lib: TestSim;
let def: TestSim;
const receivers: Receiver[] = [];
beforeAll(async () => {
  [lib, def] = await Promise.all([startTestSim({ liberal: true, deadlineMs: 3000 }), startTestSim({ deadlineMs: 3000 })]);
});
afterAll(async () => {
  await Promise.all([lib.close(), def.close()]);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

const pairBody = (t: TestSim, body: Record<string, unknown>) =>
  t.http.call('POST', P.pair, { headers: { 'x-pay-connect-integrator-id': 'acme' }, body: { otp: t.sim.mintOtp(), ...body } });

async function start(c: Client, amount: number): Promise<string> {
  const r = await c.post(P.generate, { amount });
  expect(r.status, r.text).toBe(200);
  return r.json.transaction_id as string;
}

describe('the default simulator, beside it, is as it was', () => {
  it(
    "answers compact JSON in its records' key order, with a length, no-store and an announced keep-alive; " +
      'UUIDs and UTC seconds; a creation webhook',
    async () => {
      const rx = await receiver();
      const c = await pairClient(def, { webhookUrl: rx.url });
      expect(Object.keys(c.pairing)).toEqual([
        'pay_connect_id',
        'pay_connect_name',
        'terminal_id',
        'client_id',
        'client_secret',
        'webhook_secret_key',
      ]);
      const id = await start(c, 1000);
      const s = await waitFinal(c, id, 4000);
      const r = await c.get(P.status(id));
      expect(r.text).toBe(JSON.stringify(s));
      expect(Object.keys(s).slice(0, 14)).toEqual([
        'transaction_id',
        'client_transaction_id',
        'status',
        'amount',
        'tip_amount',
        'total_amount',
        'currency',
        'payment_method',
        'tags',
        'created_at',
        'completed_at',
        'canceled_at',
        'reverted_at',
        'refund_total_amount',
      ]);
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['keep-alive']).toBe('timeout=5');
      expect(r.headers['x-request-id']).toBeUndefined();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(s.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect((await c.login()).json.expires_in).toBe('3600');
      await rx.waitFor((ds) => ds.length >= 3);
      expect(rx.deliveries.map((d) => d.json.event)).toEqual(['transaction.initiated', 'transaction.in_progress', 'transaction.success']);
      expect(rx.deliveries[0]?.raw.toString('utf8')).toBe(JSON.stringify(rx.deliveries[0]?.json)); // sorted keys, compact
    },
  );
});

describe('the liberal sandbox accepts what no document refuses', () => {
  it('pairs with an empty webhook_url and an empty name (pair.webhook-url-any-string, pair.name-any-string), which the default refuses', async () => {
    const r = await pairBody(lib, { name: '', webhook_url: '' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.pay_connect_name).toBe('');
    expect(typeof r.json.webhook_secret_key === 'string' && r.json.webhook_secret_key !== '').toBe(true);
    const notUrl = await pairBody(lib, { name: 'pos', webhook_url: 'not a url' });
    expect(notUrl.status, notUrl.text).toBe(200);
    expect((await pairBody(def, { name: '', webhook_url: 'https://pos.example/hooks' })).status).toBe(400);
    expect((await pairBody(def, { name: 'pos', webhook_url: '' })).status).toBe(400);
  });

  it('still refuses what sandbox.md refuses: a malformed or never-valid OTP, a missing name', async () => {
    expect((await pairBody(lib, { name: 'pos', otp: '12345' })).status).toBe(400);
    expect((await pairBody(lib, { name: 'pos', otp: '000000' })).status).toBe(400);
    expect((await pairBody(lib, {})).status).toBe(400);
  });

  it('ignores unknown fields of a body (request.unknown-fields-ignored)', async () => {
    const r = await pairBody(lib, { name: 'pos', flavour: 'vanilla', nested: { a: 1 } });
    expect(r.status, r.text).toBe(200);
  });
});

describe('the liberal sandbox writes its answers its own way', () => {
  it('serialises JSON otherwise than the default while the values agree (json.*, config.own-values)', async () => {
    const [l, d] = await Promise.all([pairClient(lib), pairClient(def)]);
    const [lc, dc] = await Promise.all([l.get(P.config), d.get(P.config)]);
    expect(lc.text).not.toBe(JSON.stringify(lc.json)); // indented, with its own key order and number forms
    expect(dc.text).toBe(JSON.stringify(dc.json)); // the default: compact, as JSON.stringify writes it
    expect(lc.text).toMatch(/^\{\n {2}"/);
    for (const k of ['currency', 'timezone'] as const) expect(lc.json[k]).toBe(dc.json[k]);
    expect(Object.keys(lc.json)).not.toEqual(Object.keys(dc.json));
    expect(new Set(Object.keys(lc.json))).toEqual(new Set(Object.keys(dc.json)));
    expect(lc.json.version).not.toBe(dc.json.version);
    expect(lc.json.payment_methods.map((m: { id: string }) => m.id)).toEqual(
      expect.arrayContaining(dc.json.payment_methods.map((m: { id: string }) => m.id)),
    );

    const [lt, dt] = await Promise.all([start(l, 1234), start(d, 1234)]);
    const [ls, ds] = await Promise.all([waitFinal(l, lt, 4000), waitFinal(d, dt, 4000)]);
    for (const k of [
      'status',
      'amount',
      'tip_amount',
      'total_amount',
      'currency',
      'payment_method',
      'tags',
      'client_transaction_id',
    ] as const) {
      expect(ls[k], k).toEqual(ds[k]);
    }
    const raw = (await l.get(P.status(lt))).text;
    expect(raw).toContain('"amount": 1234.0'); // json.number-forms: the same number
    expect(raw).toContain('"tags": [\n');
  });

  it('escapes non-ASCII characters and "/" in strings (json.unicode-escapes)', async () => {
    const r = await pairBody(lib, { name: 'Pekarna Žito/1' });
    expect(r.json.pay_connect_name).toBe('Pekarna Žito/1');
    expect(r.text).toContain('"Pekarna \\u017dito\\/1"');
    expect(/[^\x00-\x7f]/.test(r.text)).toBe(false);
  });

  it('answers with headers of its own, and error bodies with fields beside detail (headers.extra, errors.*)', async () => {
    const [l, d] = await Promise.all([
      lib.http.call('GET', P.config, { headers: { 'x-pay-connect-integrator-id': 'acme', authorization: 'Bearer nope' } }),
      def.http.call('GET', P.config, { headers: { 'x-pay-connect-integrator-id': 'acme', authorization: 'Bearer nope' } }),
    ]);
    expect([l.status, d.status]).toEqual([401, 401]);
    expect(l.json.detail).toBe(d.json.detail);
    expect(Object.keys(d.json)).toEqual(['detail']);
    expect(l.json).toMatchObject({ status: 401, title: 'Unauthorized', code: 'PC-401' });
    expect(l.headers['www-authenticate']).toBe('Bearer realm="pay-connect", error="invalid_token"');
    expect(d.headers['www-authenticate']).toBe('Bearer');
    expect(l.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(d.headers['content-type']).toBe('application/json');
    expect(l.headers['x-request-id']).toMatch(/^req-/);
    expect(d.headers['x-request-id']).toBeUndefined();
  });

  it('has ids, credentials and a clock of its own (ids.own-format, credentials.own-format, clock.*)', async () => {
    const c = await pairClient(lib, { webhookUrl: 'http://127.0.0.1:9/hooks' });
    expect(c.pairing.terminal_id).toMatch(/^TRM-\d{6}$/);
    expect(c.pairing.pay_connect_id).toMatch(/^pc_\d{12}$/);
    expect(c.pairing.webhook_secret_key).toMatch(/[^\x00-\x7f]/);
    expect(c.token).toMatch(/^[A-Za-z0-9._~+/-]+=*$/);
    expect(c.token).toMatch(/[.~]/);
    const before = Date.now();
    const id = await start(c, 1000);
    expect(id).toMatch(/^tx:[a-z2-7]{26}$/);
    const s = await waitFinal(c, id, 4000);
    expect(s.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    const created = Date.parse(s.created_at);
    expect(created - before).toBeGreaterThanOrEqual(LIBERAL_CLOCK_SKEW_MS - 1000);
    expect(created - before).toBeLessThan(LIBERAL_CLOCK_SKEW_MS + 5000);
    const d = await pairClient(def);
    const ds = await waitFinal(d, await start(d, 1000), 4000);
    expect(ds.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(ds.transaction_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it("writes local time with the zone's offset, winter and summer", () => {
    expect(localStamp(Date.UTC(2026, 0, 15, 10, 0, 0, 5))).toBe('2026-01-15T11:00:00.005+01:00');
    expect(localStamp(Date.UTC(2026, 6, 15, 23, 30, 0))).toBe('2026-07-16T01:30:00.000+02:00');
  });

  it('leaves out optional fields without a value and adds fields of its own (records.*)', async () => {
    const [l, d] = await Promise.all([pairClient(lib), pairClient(def)]);
    const [lt, dt] = await Promise.all([start(l, 1051), start(d, 1051)]); // 51: DECLINED, no card data
    await Promise.all([waitFinal(l, lt, 4000), waitFinal(d, dt, 4000)]);
    const [ls, ds] = await Promise.all([l.get(P.slip(lt)), d.get(P.slip(dt))]);
    expect(ds.json.canceled_at).toBeNull();
    expect('canceled_at' in ls.json).toBe(false);
    expect('approve_code' in ls.json).toBe(false);
    expect(ls.json.receipt_number).toMatch(/^R-/);
    expect(ls.json.digital_slip).toMatch(/^https:\/\/receipts\.liberal\.example\/slips\/.+\?format=pdf&sig=\d+$/); // slip.own-digital-slip
    const cancel = await l.post(P.cancel(lt));
    expect(cancel.status).toBe(400); // already final: sandbox.md
  });

  it('takes its time: a pairing answers after 0.8 s or more (timing.slow-answers)', async () => {
    const t0 = performance.now();
    await pairBody(lib, { name: 'slow' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(790);
    const t1 = performance.now();
    await pairBody(def, { name: 'fast' });
    expect(performance.now() - t1).toBeLessThan(900);
  });

  it('closes an idle connection after 1.5 s without announcing it (keep-alive.unannounced-close)', async () => {
    const port = Number(new URL(lib.sim.url).port);
    const sock = connect(port, '127.0.0.1');
    let text = '';
    sock.on('data', (b: Buffer) => {
      text += b.toString('latin1');
    });
    const closed = new Promise<number>((r) => sock.once('close', () => r(performance.now())));
    sock.write('GET /v1/pay-connect/nope/ HTTP/1.1\r\nhost: x\r\n\r\n');
    await sleep(300);
    const answered = performance.now();
    expect(text).toMatch(/^HTTP\/1\.1 404/);
    expect(text.toLowerCase()).not.toContain('keep-alive: timeout');
    expect((await closed) - answered).toBeGreaterThan(900);
  });
});

describe("the liberal sandbox's limits, tokens, methods and idempotency", () => {
  it('rate-limits polling with a 429 and Retry-After (limits.poll-rate), which the default does not', async () => {
    const [l, d] = await Promise.all([pairClient(lib), pairClient(def)]);
    const [lt, dt] = await Promise.all([start(l, 1000), start(d, 1000)]);
    const ls = await Promise.all(Array.from({ length: 10 }, () => l.get(P.status(lt))));
    const ds = await Promise.all(Array.from({ length: 10 }, () => d.get(P.status(dt))));
    const limited = ls.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]?.headers['retry-after']).toBe('1');
    expect(ds.every((r) => r.status === 200)).toBe(true);
  });

  it('issues tokens that live 30 s, and says so (token.short-lifetime)', async () => {
    const [l, d] = await Promise.all([pairClient(lib), pairClient(def)]);
    expect((await l.login()).json.expires_in).toBe('30');
    expect((await d.login()).json.expires_in).toBe('3600');
  });

  it('offers TWINT and VALU beside CARD, and generate takes them (config.more-methods)', async () => {
    const [l, d] = await Promise.all([pairClient(lib), pairClient(def)]);
    const ids = (await l.get(P.config)).json.payment_methods.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['CARD', 'TWINT', 'VALU']));
    const r = await l.post(P.generate, { amount: 1000, payment_method: 'TWINT' });
    expect(r.status, r.text).toBe(200);
    const s = await waitFinal(l, r.json.transaction_id, 4000);
    expect([s.status, s.payment_method, 'card_number' in s]).toEqual(['SUCCESS', 'TWINT', false]);
    expect((await d.post(P.generate, { amount: 1000, payment_method: 'TWINT' })).status).toBe(400);
  });

  it('answers a repeated request with the transaction it already made (transaction.client-id-idempotent)', async () => {
    const [l, d] = await Promise.all([pairClient(lib), pairClient(def)]);
    const ids = async (c: Client) => {
      const out: string[] = [];
      for (const amount of [1000, 1000, 1001]) {
        const r = await c.post(P.generate, { amount, client_transaction_id: 'pos-7' });
        expect(r.status, r.text).toBe(200);
        out.push(r.json.transaction_id as string);
        await waitFinal(c, r.json.transaction_id, 4000);
      }
      return out;
    };
    const [li, di] = await Promise.all([ids(l), ids(d)]);
    expect(li[1]).toBe(li[0]);
    expect(li[2]).not.toBe(li[0]);
    expect(new Set(di).size).toBe(3);
  });

  it("closes every fifth answer's connection (keep-alive.close-some) and puts a currency in an operation's metadata (records.extra-fields)", async () => {
    const c = await pairClient(lib);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await c.get(P.config));
    expect(answers.filter((r) => r.headers.connection === 'close').length).toBe(1);
    const pre = await c.post(P.preauth, { amount: 2000 });
    await waitFinal(c, pre.json.transaction_id, 4000);
    const ref = await c.post(P.increment(pre.json.transaction_id), { amount: 100 });
    expect(ref.status, ref.text).toBe(200);
    const op = (await c.get(P.operation(ref.json.operation_id))).json;
    expect(op.metadata).toEqual({ amount: 100, currency: 'EUR' });
  });

  it('sends every other answer chunked (http.chunked-answers)', async () => {
    const c = await pairClient(lib);
    const answers = await Promise.all([c.get(P.config), c.get(P.config), c.get(P.config)]);
    const framing = answers.map((r) =>
      r.headers['transfer-encoding'] === 'chunked' ? 'chunked' : r.headers['content-length'] !== undefined ? 'length' : 'none',
    );
    expect(framing).toContain('chunked');
    expect(framing).toContain('length');
  });
});

describe("the liberal sandbox's webhooks", () => {
  const hmac = (key: string, raw: Buffer) => createHmac('sha256', Buffer.from(key, 'utf8')).update(raw).digest('hex');

  it('posts no creation event, some deliveries twice, out of order and late, signed over its own bytes (webhook.*)', async () => {
    const rx = await receiver();
    const c = await pairClient(lib, { webhookUrl: rx.url });
    const sent = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const id = await start(c, 1000 + i);
      ids.push(id);
      await waitFinal(c, id, 4000);
    }
    await rx.waitFor(
      (ds) => ids.every((id) => ds.some((d) => d.json.data.transaction_id === id && d.json.event === 'transaction.success')),
      8000,
    );
    await sleep(1600); // the last duplicates
    const events = rx.deliveries.map((d) => d.json.event as string);
    expect(events).not.toContain('transaction.initiated');
    // payment.method-chosen-late: no payment_method was sent, and none is chosen while IN_PROGRESS
    const inProgress = rx.deliveries.filter((d) => d.json.event === 'transaction.in_progress');
    expect(inProgress.length).toBeGreaterThan(0);
    expect(inProgress.every((d) => d.json.data.payment_method === null)).toBe(true);
    const eventIds = rx.deliveries.map((d) => d.json.event_id as string);
    expect(new Set(eventIds).size).toBeLessThan(eventIds.length); // duplicates, same event_id
    expect(eventIds.every((e) => /^evt_[a-z2-7]{24}$/.test(e))).toBe(true);
    const outOfOrder = ids.some((id) => {
      const mine = rx.deliveries.filter((d: Delivery) => d.json.data.transaction_id === id).map((d) => d.json.event);
      return mine.indexOf('transaction.success') < mine.lastIndexOf('transaction.in_progress');
    });
    expect(outOfOrder).toBe(true);
    const first = rx.deliveries[0] as Delivery;
    const raw = first.raw.toString('utf8');
    expect(raw).toMatch(/^\{"data": \{/); // sorted keys, its own separators
    expect(raw).not.toBe(JSON.stringify(first.json));
    expect(first.headers.signature).toBe(hmac(c.pairing.webhook_secret_key as string, first.raw));
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-pay-connect-delivery']).toMatch(/^dlv-/);
    expect(performance.now() - sent).toBeGreaterThan(150);
    // webhook data = the status record, field by field
    const last = rx.deliveries.filter(
      (d) => d.json.data.transaction_id === ids[0] && d.json.event === 'transaction.success',
    )[0] as Delivery;
    expect(last.json.data).toEqual((await c.get(P.status(ids[0] as string))).json);
  }, 30_000);

  it('lets a payment canceled while IN_PROGRESS finish SUCCESS every second time (cancel.race-success)', async () => {
    const t = await startTestSim({ liberal: true, stepDelayMs: 1000, deadlineMs: 8000, seed: 11 });
    try {
      const c = await pairClient(t);
      const ends: string[] = [];
      for (let i = 0; i < 2; i++) {
        const id = await start(c, 1000);
        // Five reads a second: under its rate limit, often enough to see IN_PROGRESS (half a step to a step long).
        for (let seen = ''; seen !== 'IN_PROGRESS'; await sleep(200)) {
          seen = (await c.get(P.status(id))).json.status as string;
          expect(seen).toMatch(/^(INITIATED|IN_PROGRESS)$/);
        }
        expect((await c.post(P.cancel(id))).status).toBe(200);
        ends.push((await waitFinal(c, id, 6000)).status as string);
      }
      expect(ends).toEqual(['SUCCESS', 'CANCELED']);
    } finally {
      await t.close();
    }
  }, 30_000);
});
