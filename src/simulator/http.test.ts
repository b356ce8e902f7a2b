/** sandbox#errors and the HTTP pipeline: 404, 405, 413, malformed bodies, 500, malformed HTTP, logging. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from './sim-state.ts';
import { resolveSimulatorOptions } from './options.ts';
import { Router } from './router.ts';
import { createSimServer } from './server.ts';
import { Http, P, pairClient, startTestSim, type Client, type Res, type TestSim } from './testkit.ts';

let t: TestSim;
let c: Client;
const lines: string[] = [];
beforeAll(async () => {
  t = await startTestSim({ onRequest: (l) => lines.push(l) });
  c = await pairClient(t);
});
afterAll(() => t.close());

function expectError(r: Res, status: number): void {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/json');
  expect(Object.keys(r.json)).toEqual(['detail']);
  expect(typeof r.json.detail).toBe('string');
}

/** Sends raw bytes on a fresh socket; resolves with everything received until the server closes. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(bytes));
    let got = '';
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('close', () => resolve(got));
    s.on('error', reject);
    s.setTimeout(3000, () => s.destroy());
  });
}

describe('routing', () => {
  it('answers 404 JSON to unknown paths and paths without the trailing slash', async () => {
    for (const path of [
      '/',
      '/nope/',
      '/v1/pay-connect/config',
      '/v1/auth/token',
      '/v1//pay-connect/config/',
      '/v1/pay-connect/transactions/generate',
      `/v1/pay-connect/transactions/x/status`,
      '/v1/pay-connect/transactions/%E0%A4%A/status/',
    ]) {
      expectError(await c.get(path), 404);
    }
    expectError(await c.post('/v1/pay-connect/transactions/generate', { amount: 100 }), 404);
  });

  it('answers 405 JSON with Allow to a wrong method on a known path', async () => {
    const r = await c.get(P.generate);
    expectError(r, 405);
    expect(r.headers.allow).toBe('POST');
    expectError(await c.post(P.config, {}), 405);
    expectError(await t.http.call('PUT', P.token), 405);
    expectError(await t.http.call('DELETE', P.status('x')), 405);
    expect((await t.http.call('HEAD', P.generate)).status).toBe(405);
  });

  it('ignores the query string', async () => {
    expect((await c.get(`${P.config}?lang=en`)).status).toBe(200);
  });
});

describe('bodies', () => {
  it('answers 400 to malformed JSON, non-object JSON, an empty body and wrong types', async () => {
    for (const body of ['{"amount": ', '[1,2]', '"text"', 'null', '', '{"amount":"100"}', '{"amount":1e400}']) {
      expectError(await c.post(P.generate, body), 400);
    }
    expectError(await t.http.call('POST', P.pair, { headers: { 'x-pay-connect-integrator-id': 'i' }, body: '{bad' }), 400);
    expectError(await t.http.call('POST', P.token, { body: Buffer.from([0xff, 0xfe, 0x00]) }), 400);
  });

  it('answers 413 to a body over 64 KiB and keeps the connection usable', async () => {
    const big = JSON.stringify({ amount: 100, pad: 'x'.repeat(64 * 1024) });
    expectError(await c.post(P.generate, big), 413);
    expectError(await c.post(P.generate, 'y'.repeat(1024 * 1024)), 413);
    const fits = JSON.stringify({ amount: 100, client_transaction_id: 'a' }).padEnd(64 * 1024, ' ');
    expect((await c.post(P.generate, fits)).status).toBe(200);
  });

  it('answers 413 and closes the connection when the declared body is enormous', async () => {
    const port = Number(new URL(t.sim.url).port);
    const got = await rawExchange(
      port,
      `POST ${P.generate} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000000\r\n\r\n{"amount":`,
    );
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got).toMatch(/connection: close/i);
    expect(got).toContain('{"detail":');
  });

  it('answers malformed HTTP with a JSON 400', async () => {
    const port = Number(new URL(t.sim.url).port);
    const got = await rawExchange(port, 'GARBAGE \u0001\r\n\r\n');
    expect(got).toMatch(/^HTTP\/1\.1 400 /);
    expect(got).toMatch(/content-type: application\/json/);
    expect(got).toContain('{"detail":');
  });
});

describe('failures inside a handler', () => {
  it('become a 500 JSON answer and the server keeps serving', async () => {
    const ctx = createContext(resolveSimulatorOptions({ seed: 1 }));
    const router = new Router([
      {
        method: 'GET',
        path: '/boom/',
        auth: 'none',
        handle: () => {
          throw new TypeError('secret internals');
        },
      },
      { method: 'GET', path: '/ok/', auth: 'none', handle: () => ({ status: 200, body: { ok: true } }) },
    ]);
    const sim = createSimServer(ctx, router);
    await new Promise<void>((r) => sim.server.listen(0, '127.0.0.1', r));
    const { port } = sim.server.address() as { port: number };
    const http = new Http(`http://127.0.0.1:${port}`);
    try {
      const r = await http.call('GET', '/boom/');
      expectError(r, 500);
      expect(r.text).not.toContain('secret internals');
      expect((await http.call('GET', '/ok/')).json).toEqual({ ok: true });
    } finally {
      await http.close();
      await sim.close();
      await ctx.webhooks.close();
    }
  });
});

describe('request log', () => {
  it('writes one line per request with method, path, status and ms, never a secret', async () => {
    const before = lines.length;
    await c.get(P.config);
    await c.post(P.generate, '{bad');
    const mine = lines.slice(before);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatch(/^GET \/v1\/pay-connect\/config\/ 200 \d+ms$/);
    expect(mine[1]).toMatch(/^POST \/v1\/pay-connect\/transactions\/generate\/ 400 \d+ms$/);
    const all = lines.join('\n');
    for (const s of [c.token, c.pairing.client_secret as string]) expect(all).not.toContain(s);
  });
});

describe('keep-alive', () => {
  const REQUEST = 'GET /v1/pay-connect/unknown/ HTTP/1.1\r\nhost: x\r\n\r\n';

  /** One request on a fresh socket: the answer's head, and how long the server kept the socket after it. */
  function keptFor(port: number): Promise<{ head: string; keptMs: number }> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.write(REQUEST));
      let got = '';
      let answeredAt = 0;
      s.on('data', (d) => {
        got += d.toString('latin1');
        answeredAt ||= Date.now();
      });
      s.on('close', () => resolve({ head: got.split('\r\n\r\n')[0]!.toLowerCase(), keptMs: Date.now() - answeredAt }));
      s.on('error', reject);
      s.setTimeout(8000, () => s.destroy());
    });
  }

  it('closes an idle connection after the given ms without announcing it', async () => {
    const sim = await startTestSim({ keepAlive: 300 });
    try {
      const { head, keptMs } = await keptFor(Number(new URL(sim.sim.url).port));
      expect(head).not.toContain('keep-alive: timeout');
      expect(head).not.toContain('connection: close');
      expect(keptMs).toBeGreaterThanOrEqual(250);
      expect(keptMs).toBeLessThan(3000);
    } finally {
      await sim.close();
    }
  });

  it('answers Connection: close and closes at once with close, and announces 5 s by default', async () => {
    const closing = await startTestSim({ keepAlive: 'close' });
    try {
      const { head, keptMs } = await keptFor(Number(new URL(closing.sim.url).port));
      expect(head).toContain('connection: close');
      expect(keptMs).toBeLessThan(250);
    } finally {
      await closing.close();
    }
    const port = Number(new URL(t.sim.url).port);
    const head = await new Promise<string>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.write(REQUEST));
      s.once('data', (d) => {
        resolve(d.toString('latin1').toLowerCase());
        s.destroy();
      });
      s.on('error', reject);
    });
    expect(head).toContain('keep-alive: timeout=5');
  });

  it('refuses a keepAlive that is neither a mode nor a duration', () => {
    expect(() => resolveSimulatorOptions({ keepAlive: 0 })).toThrow(/keepAlive/);
    expect(() => resolveSimulatorOptions({ keepAlive: 'sometimes' as never })).toThrow(/keepAlive/);
  });
});
