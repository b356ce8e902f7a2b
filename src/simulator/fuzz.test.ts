/**
 * Fuzzing the HTTP front: 10,000 random requests (near-valid and garbage paths, methods, headers,
 * bodies, huge bodies) over keep-alive, each answered with a proper status and a JSON body; then
 * random bytes on raw sockets; and the server still serves a normal payment afterwards.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P, pairClient, pay, startTestSim, type Client, type Res, type TestSim } from './testkit.ts';

let t: TestSim;
let c: Client;
beforeAll(async () => {
  t = await startTestSim();
  c = await pairClient(t);
});
afterAll(() => t.close());

const BATCH = 25;
const RUNS = 400; // 400 x 25 = 10,000 requests

const printable = (maxLength = 40) => fc.string({ unit: 'grapheme-ascii', maxLength });

/** Placeholder for a real transaction id of the fuzzing client, filled in at send time. */
const REAL = '{real}';
const realIds: string[] = [];

const TEMPLATES = [
  '/v1/auth/token/',
  '/v1/pay-connect/pair/',
  '/v1/pay-connect/config/',
  P.generate,
  P.preauth,
  P.refund,
  '/v1/pay-connect/transactions/{id}/status/',
  '/v1/pay-connect/transactions/{id}/cancel/',
  '/v1/pay-connect/transactions/{id}/print-slip/',
  '/v1/pay-connect/transactions/{id}/refund/',
  '/v1/pay-connect/transaction-operations/{id}/preauth-increment/',
  '/v1/pay-connect/transaction-operations/{id}/preauth-complete/',
  '/v1/pay-connect/transaction-operations/{id}/revert/',
  '/v1/pay-connect/transaction-operations/{id}/',
];

/** Paths: valid templates with odd ids, near misses (no slash, extra segments, case), and junk. */
const pathArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...TEMPLATES),
        fc.oneof(
          fc.constant(REAL),
          fc.constant(REAL),
          fc.uuid(),
          printable(60),
          fc.constantFrom('generate', '..', '%00', '%E0%A4%A', '%2F'),
        ),
      )
      .map(([tpl, id]) => tpl.replace('{id}', /^%|^\.\.$/.test(id) || id === REAL ? id : encodeURIComponent(id))),
  },
  fc.constantFrom(...TEMPLATES).map((p) => p.replace('{id}', 'x').slice(0, -1)),
  fc.tuple(fc.constantFrom(...TEMPLATES), printable(10)).map(([p, s]) => `${p.replace('{id}', 'x')}${encodeURIComponent(s)}/`),
  fc.constantFrom(...TEMPLATES).map((p) => p.replace('{id}', 'x').toUpperCase()),
  fc.constantFrom('/v1/pay-connect/unpair', '//', '/v1/', '/?x=1', '/v1/pay-connect/config/?a=%ZZ', '/v1//auth/token/'),
  fc.array(printable(12), { maxLength: 6 }).map((segs) => `/${segs.map(encodeURIComponent).join('/')}`),
);

const jsonBody = fc.oneof(
  fc
    .record(
      {
        amount: fc.oneof(fc.integer({ min: -10, max: 100_000_005 }), fc.double(), printable(5), fc.constant(null)),
        client_transaction_id: fc.oneof(printable(), fc.integer()),
        payment_method: fc.constantFrom('CARD', 'MBILLS', 'CASH', '', 7),
        otp: fc.oneof(
          fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')),
          printable(8),
        ),
        name: printable(),
        webhook_url: fc.constantFrom('http://127.0.0.1:9/x', 'nope', ''),
        grant_type: fc.constantFrom('client_credentials', 'password'),
        client_id: printable(),
        client_secret: printable(),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.json({ maxDepth: 3 }),
);

const bodyArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 5, arbitrary: jsonBody },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.integer({ min: 64 * 1024 + 1, max: 256 * 1024 }).map((n) => Buffer.alloc(n, 0x7b)) },
);

const randomArb = fc.record({
  method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'POST') }, fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS')),
  path: pathArb,
  auth: fc.constantFrom('valid', 'none', 'junk', 'scheme-only'),
  integrator: fc.oneof(fc.constant('valid'), fc.constant(null), printable(20)),
  contentType: fc.option(
    fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'),
  ),
  body: bodyArb,
});

/** Mostly valid starts, so the fuzz also reaches the terminal's states (busy, final, ...). */
const startArb = fc.record({
  method: fc.constant('POST'),
  path: fc.constantFrom(P.generate, P.preauth, P.refund),
  auth: fc.constant('valid'),
  integrator: fc.constant('valid'),
  contentType: fc.constant('application/json'),
  body: fc.integer({ min: 1, max: 3000 }).map((amount) => JSON.stringify({ amount })),
});

const requestArb = fc.oneof({ weight: 9, arbitrary: randomArb }, { weight: 1, arbitrary: startArb });

type Req = typeof randomArb extends fc.Arbitrary<infer R> ? R : never;

function send(r: Req): Promise<Res> {
  const headers: Record<string, string> = {};
  if (r.auth === 'valid') headers.authorization = `Bearer ${c.token}`;
  if (r.auth === 'junk') headers.authorization = 'Bearer junk-token';
  if (r.auth === 'scheme-only') headers.authorization = 'Basic abc';
  if (r.integrator !== null) headers['x-pay-connect-integrator-id'] = r.integrator === 'valid' ? c.integratorId : r.integrator;
  if (r.contentType !== null) headers['content-type'] = r.contentType;
  const body = r.method === 'GET' ? undefined : r.body;
  const path = r.path.replace(REAL, realIds[realIds.length - 1 - (r.path.length % 3)] ?? 'none');
  return t.http.call(r.method, path, { headers, body: body ?? undefined }).then((res) => {
    if (res.status === 200 && typeof res.json?.transaction_id === 'string') realIds.push(res.json.transaction_id);
    if (realIds.length > 50) realIds.splice(0, 25);
    return res;
  });
}

function wellFormed(r: Res, req: Req): void {
  const where = `${req.method} ${req.path} -> ${r.status} ${r.text.slice(0, 200)}`;
  expect(r.status, where).toBeGreaterThanOrEqual(200);
  expect(r.status, where).toBeLessThan(600);
  if (r.status === 200 && req.path === '/v1/pay-connect/unpair/') return; // the profile's empty answer
  expect(r.headers['content-type'], where).toBe('application/json');
  expect(r.json, where).not.toBeNull();
  if (r.status >= 400) expect(typeof r.json.detail, where).toBe('string');
  if (r.status >= 500) expect.fail(`server error: ${where}`);
}

describe('HTTP fuzz', () => {
  it(`answers ${BATCH * RUNS} random requests with a status and a JSON body`, async () => {
    let count = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const answers = await Promise.all(batch.map(send));
        answers.forEach((r, i) => {
          wellFormed(r, batch[i] as Req);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        });
        count += batch.length;
      }),
      { numRuns: RUNS, seed: 20261122, endOnFailure: true },
    );
    expect(count).toBeGreaterThanOrEqual(10_000);
    // The generators reach deep: past auth into handlers, and every error class.
    for (const s of [200, 400, 401, 404, 405, 409, 413]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(0);
  }, 60_000);

  it('answers random bytes on raw sockets with JSON or a closed connection', async () => {
    const port = Number(new URL(t.sim.url).port);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 400 }), async (bytes) => {
        const got = await new Promise<string>((resolve) => {
          const s = connect(port, '127.0.0.1', () => s.end(Buffer.from(bytes)));
          let data = '';
          s.on('data', (d) => (data += d.toString('latin1')));
          s.on('close', () => resolve(data));
          s.on('error', () => resolve(data));
          s.setTimeout(2000, () => s.destroy());
        });
        if (got === '') return;
        expect(got).toMatch(/^HTTP\/1\.1 \d{3} /);
        expect(got).toMatch(/\{"detail":"[^"]*"\}$/);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('still serves a normal payment afterwards', async () => {
    const fresh = await pairClient(t);
    expect((await pay(fresh, 1000)).status).toBe('SUCCESS');
  });
});
