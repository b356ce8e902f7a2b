import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../core/errors.ts';
import { fakePayConnect, useClient } from './testing.ts';
import { sendJson } from './test-server.ts';

const start = useClient();
const CONFIG = { method: 'GET', path: '/v1/pay-connect/config/' } as const;
const GENERATE = { method: 'POST', path: '/v1/pay-connect/transactions/generate/', body: { amount: 100 } } as const;
const authOf = (calls: { headers: { authorization?: string } }[]) => calls.map((c) => c.headers.authorization);

describe('bearerToken', () => {
  it('fetches a token with the credentials and adds it; the token request has no bearer', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    expect((await client.request(CONFIG)).status).toBe(200);
    const [token, config] = server.seen;
    expect(token?.url).toBe('/v1/auth/token/');
    expect(token?.headers).not.toHaveProperty('authorization');
    expect(JSON.parse(token?.body ?? '')).toEqual({
      grant_type: 'client_credentials',
      client_id: 'cid-1',
      client_secret: 'cs-very-secret-1',
    });
    expect(config?.headers.authorization).toBe('Bearer tok-1');
  });

  it('skips the token and pairing paths, even when called without trailing slash', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    await client.request({ method: 'POST', path: '/v1/pay-connect/pair', body: { name: 'n', otp: '1' } });
    await client.request({ method: 'POST', path: '/v1/auth/token/', auth: 'auto', body: {} });
    expect(server.seen.map((r) => r.url)).toEqual(['/v1/pay-connect/pair/', '/v1/auth/token/']);
    expect(authOf(server.seen)).toEqual([undefined, undefined]);
  });

  it('caches the token, also across concurrent requests', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    await Promise.all([client.request(CONFIG), client.request(CONFIG), client.request(CONFIG)]);
    await client.request(CONFIG);
    expect(fake.issued()).toBe(1);
    expect(authOf(fake.calls(server))).toEqual(Array(4).fill('Bearer tok-1'));
  });

  it('renews before expires_in runs out (real time, expires_in "1" renews after 0.8 s)', async () => {
    const fake = fakePayConnect({ expiresIn: '1' });
    const { server, client } = await start(fake.route);
    await client.request(CONFIG);
    await client.request(CONFIG);
    await new Promise((r) => setTimeout(r, 900));
    await client.request(CONFIG);
    expect(authOf(fake.calls(server))).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('renews 30 s before expiry of a long-lived token (fake clock)', async () => {
    let now = 0;
    const fake = fakePayConnect({ expiresIn: '3600' });
    const { client } = await start(fake.route, { token: { now: () => now } });
    await client.request(CONFIG);
    now = 3_569_999;
    await client.request(CONFIG);
    expect(fake.issued()).toBe(1);
    now = 3_570_000;
    await client.request(CONFIG);
    expect(fake.issued()).toBe(2);
  });

  it('treats an unparseable expires_in as 60 s and notes it', async () => {
    let now = 0;
    const notes: string[] = [];
    const fake = fakePayConnect({ expiresIn: 'soon' });
    const { client } = await start(fake.route, { token: { now: () => now, onNote: (m) => notes.push(m) } });
    await client.request(CONFIG);
    now = 47_999;
    await client.request(CONFIG);
    expect(fake.issued()).toBe(1);
    now = 48_000;
    await client.request(CONFIG);
    expect(fake.issued()).toBe(2);
    expect(notes[0]).toMatch(/expires_in "soon".*60 s/);
  });

  it('on a 401 to a GET: drops the token, fetches a new one and re-sends once', async () => {
    const fake = fakePayConnect();
    const { server, client, exchanges } = await start(fake.route);
    fake.revoked.add('tok-1');
    const res = await client.request(CONFIG);
    expect(res.status).toBe(200);
    expect(authOf(fake.calls(server))).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(exchanges.map((e) => `${e.request.path} ${e.response?.status}`)).toEqual([
      '/v1/auth/token/ 200',
      '/v1/pay-connect/config/ 401',
      '/v1/auth/token/ 200',
      '/v1/pay-connect/config/ 200',
    ]);
    expect(res.exchange).toBe(exchanges[3]);
  });

  it('re-sends a GET only once: a second 401 is the answer', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    fake.revoked.add('tok-1').add('tok-2');
    expect((await client.request(CONFIG)).status).toBe(401);
    expect(fake.calls(server)).toHaveLength(2);
  });

  it('never re-sends a POST on a 401, but uses a new token next time', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    await client.request(CONFIG);
    fake.revoked.add('tok-1');
    const res = await client.request(GENERATE);
    expect(res.status).toBe(401);
    expect(fake.calls(server).filter((r) => r.method === 'POST')).toHaveLength(1);
    await client.request(CONFIG);
    expect(authOf(fake.calls(server))).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('lets probes send no Authorization, an invalid one, or their own', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    expect((await client.request({ ...CONFIG, auth: 'none', headers: { authorization: 'Bearer x' } })).status).toBe(401);
    expect((await client.request({ ...CONFIG, auth: { bearer: 'invalid' } })).status).toBe(200);
    await client.request({ ...CONFIG, headers: { Authorization: 'Basic abc' } });
    expect(authOf(server.seen)).toEqual([undefined, 'Bearer invalid', 'Basic abc']);
    expect(fake.issued()).toBe(0);
  });

  it("token() is the cached token; given back as the probe's own, a 401 keeps it and sends nothing again", async () => {
    const fake = fakePayConnect({
      answer: (req, res) => (req.headers['x-pay-connect-integrator-id'] === 'other' ? sendJson(res, {}, 401) : sendJson(res, {})),
    });
    const { server, client } = await start(fake.route);
    await client.request(CONFIG);
    const token = await client.token();
    expect(token).toBe('tok-1');
    const refused = await client.request({ ...CONFIG, auth: { bearer: token }, integrator: 'other' });
    expect(refused.status).toBe(401);
    await client.request(CONFIG);
    // One token in all: the refusal was sent once and did not drop the cached token.
    expect(fake.issued()).toBe(1);
    expect(authOf(fake.calls(server))).toEqual(Array(3).fill('Bearer tok-1'));
  });

  it('fails with PCC_NO_PAIRING without credentials, PCC_AUTH_FAILED when the token is refused', async () => {
    const fake = fakePayConnect();
    const { client } = await start(fake.route, { credentials: undefined });
    await expect(client.request(CONFIG)).rejects.toMatchObject({ code: 'PCC_NO_PAIRING' });
    const refused = await start((_req, res) => sendJson(res, { error: 'invalid_client' }, 400));
    const err = await refused.client.request(CONFIG).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolkitError);
    expect(err).toMatchObject({ code: 'PCC_AUTH_FAILED', message: expect.stringContaining('400') });
    // A 400 is asked once more with the integrator header, then given up.
    expect(refused.exchanges.map((e) => e.request.path)).toEqual(['/v1/auth/token/', '/v1/auth/token/']);
    expect(refused.exchanges.map((e) => e.request.headers['x-pay-connect-integrator-id'])).toEqual([undefined, expect.any(String)]);
  });

  it('gets a token from a service that wrongly wants the integrator header on the token endpoint', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start((req, res, n, raw) => {
      if (req.url === '/v1/auth/token/' && !req.headers['x-pay-connect-integrator-id'])
        return sendJson(res, { detail: 'integrator required' }, 400);
      return fake.route(req, res, n, raw);
    });
    expect((await client.request(CONFIG)).status).toBe(200);
    expect(server.seen.map((r) => r.url)).toEqual(['/v1/auth/token/', '/v1/auth/token/', '/v1/pay-connect/config/']);
    expect(server.seen[2]?.headers.authorization).toBe('Bearer tok-1');
  });

  it('setCredentials switches credentials and drops the token; a custom tokenSource works too', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route, { tokenSource: async () => ({ access_token: 'custom-tok', expires_in: '60' }) });
    await client.request(CONFIG);
    client.setCredentials({ client_id: 'cid-2', client_secret: 'cs-2-secret' });
    await client.request(CONFIG);
    client.invalidateToken();
    await client.request(CONFIG);
    expect(authOf(fake.calls(server))).toEqual(['Bearer custom-tok', 'Bearer tok-1', 'Bearer tok-2']);
    expect(JSON.parse(server.seen.find((r) => r.url === '/v1/auth/token/')?.body ?? '')).toMatchObject({ client_id: 'cid-2' });
  });
});
