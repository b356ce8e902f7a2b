import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../core/errors.ts';
import { createPayConnectClient } from './client.ts';
import { matchesPath, withTrailingSlash } from './path.ts';
import { useClient } from './testing.ts';
import { closedPort, sendJson } from './test-server.ts';

const start = useClient();
const echo = { credentials: undefined } as const;

describe('paths', () => {
  it('withTrailingSlash adds the slash before any query string, and a leading one', () => {
    expect(withTrailingSlash('/v1/pay-connect/config')).toBe('/v1/pay-connect/config/');
    expect(withTrailingSlash('/v1/pay-connect/config/')).toBe('/v1/pay-connect/config/');
    expect(withTrailingSlash('v1/x?a=1&b=/')).toBe('/v1/x/?a=1&b=/');
    expect(withTrailingSlash('/v1/x#frag')).toBe('/v1/x/#frag');
  });

  it('matchesPath compares the path part, ignoring trailing slashes and a base prefix', () => {
    expect(matchesPath('/api/v1/auth/token/?x', ['/v1/auth/token/'])).toBe(true);
    expect(matchesPath('/v1/auth/token', ['/v1/auth/token/'])).toBe(true);
    expect(matchesPath('/v1/auth/token-extra/', ['/v1/auth/token/'])).toBe(false);
    expect(matchesPath('/x/v1/auth/token/y/', ['/v1/auth/token/'])).toBe(false);
  });
});

describe('createPayConnectClient', () => {
  it('always sends a trailing slash, keeps the query string and a base URL path prefix', async () => {
    const { server, client } = await start((req, res) => sendJson(res, { url: req.url }), echo);
    await client.request({ method: 'GET', path: '/v1/pay-connect/transactions/tx-1/print-slip', auth: 'none' });
    await client.request({ method: 'GET', path: '/v1/pay-connect/transactions/tx-1/status?wait=1', auth: 'none' });
    const recorded: { url: string; path: string; operationId?: string }[] = [];
    const prefixed = createPayConnectClient({
      baseUrl: `${server.url}/api/`,
      integratorId: 'i',
      resolveOperation: (m, p) => (m === 'GET' && p === '/v1/pay-connect/config/' ? 'getConfiguration' : undefined),
      onExchange: (ex) =>
        recorded.push({ url: ex.request.url, path: ex.request.path, ...(ex.operationId ? { operationId: ex.operationId } : {}) }),
    });
    try {
      await prefixed.request({ method: 'GET', path: 'v1/pay-connect/config', auth: 'none' });
    } finally {
      await prefixed.close();
    }
    expect(server.seen.map((r) => r.url)).toEqual([
      '/v1/pay-connect/transactions/tx-1/print-slip/',
      '/v1/pay-connect/transactions/tx-1/status/?wait=1',
      '/api/v1/pay-connect/config/',
    ]);
    // The record's path is the API's (the operation found under a gateway's prefix); its URL as sent.
    expect(recorded).toEqual([
      { url: `${server.url}/api/v1/pay-connect/config/`, path: '/v1/pay-connect/config/', operationId: 'getConfiguration' },
    ]);
  });

  it("sends body as JSON, rawBody verbatim, and the caller's headers", async () => {
    const { server, client } = await start((_req, res) => sendJson(res, {}), echo);
    await client.request({ method: 'POST', path: '/v1/a/', body: { amount: 1 }, auth: 'none' });
    await client.request({
      method: 'POST',
      path: '/v1/b/',
      rawBody: '{"amount":',
      headers: { 'Content-Type': 'application/json; x=1' },
      auth: 'none',
    });
    const [json, raw] = server.seen;
    expect(json?.body).toBe('{"amount":1}');
    expect(json?.headers['content-type']).toBe('application/json');
    expect(json?.headers.accept).toBe('application/json');
    expect(raw?.body).toBe('{"amount":');
    expect(raw?.headers['content-type']).toBe('application/json; x=1');
  });

  it('answers error statuses and non-JSON bodies instead of throwing', async () => {
    const { client } = await start(
      (_req, res) => res.writeHead(500, { 'content-type': 'text/plain', 'x-trace': 't1' }).end('Internal oops'),
      echo,
    );
    const res = await client.request({ method: 'GET', path: '/v1/pay-connect/config/', auth: 'none' });
    expect(res).toMatchObject({ status: 500, body: undefined, rawBody: 'Internal oops' });
    expect(res.headers['x-trace']).toBe('t1');
  });

  it('fails with PCC_TARGET_UNREACHABLE when nothing listens, and records the attempt', async () => {
    const port = await closedPort();
    const { client, exchanges } = await start(() => {}, { ...echo, baseUrl: `http://127.0.0.1:${port}` });
    const err = await client.request({ method: 'GET', path: '/v1/pay-connect/config/', auth: 'none' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolkitError);
    expect((err as ToolkitError).code).toBe('PCC_TARGET_UNREACHABLE');
    expect((err as ToolkitError).toUserMessage()).toMatch(/fix: check the base URL/);
    expect(exchanges).toHaveLength(1); // refused is not a reset: a GET is not re-sent
    expect(exchanges[0]?.request.url).toBe(`http://127.0.0.1:${port}/v1/pay-connect/config/`);
    expect(exchanges[0]?.error?.code).toBe('PCC_TARGET_UNREACHABLE');
  });

  it('a failing onExchange sink does not break the request', async () => {
    const { client } = await start((_req, res) => sendJson(res, { ok: 1 }), {
      ...echo,
      onExchange: () => {
        throw new Error('sink broke');
      },
    });
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    const res = await client.request({ method: 'GET', path: '/v1/x/', auth: 'none' });
    expect(res.body).toEqual({ ok: 1 });
    expect((await warned).message).toContain('sink broke');
  });
});
