import { Agent } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import { recorder } from './recorder.ts';
import { fakePayConnect, useClient } from './testing.ts';
import { closedPort, sendJson, startTestServer } from './test-server.ts';

const start = useClient();
// Odd spacing, key order, numbers and multi-byte characters: a re-serialisation would change them.
const EXACT = Buffer.from('{ "b" : 1,\n  "a": "é€😀", "n": 1.50 }\n', 'utf8');

describe('recorder', () => {
  it('records the exact bytes, split across chunks mid-character, and still delivers them', async () => {
    const { client } = await start(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const cut = EXACT.indexOf('😀') + 2; // inside the 4-byte emoji
        res.write(EXACT.subarray(0, cut));
        setTimeout(() => res.end(EXACT.subarray(cut)), 20);
      },
      { credentials: undefined },
    );
    const res = await client.request({ method: 'GET', path: '/raw/', auth: 'none' });
    expect(Buffer.from(res.rawBody, 'utf8').equals(EXACT)).toBe(true);
    expect(res.exchange.response?.rawBody).toBe(EXACT.toString('utf8'));
    expect(res.body).toEqual({ b: 1, a: 'é€😀', n: 1.5 });
    expect(res.exchange.response?.body).toEqual(res.body);
    expect(res.exchange.response?.headers['content-type']).toBe('application/json');
  });

  it('records method, url, path, headers, parsed request body, operationId, seq and timing', async () => {
    const resolveOperation = vi.fn((method: string, path: string) =>
      method === 'POST' && path === '/v1/pay-connect/transactions/generate/' ? 'generateTransaction' : undefined,
    );
    const fake = fakePayConnect({ answer: (_req, res) => sendJson(res, { transaction_id: 'tx-1' }) });
    const { server, client, exchanges } = await start(fake.route, { resolveOperation });
    const res = await client.request({ method: 'POST', path: '/v1/pay-connect/transactions/generate?x=1', body: { amount: 150 } });
    const ex = res.exchange;
    expect(ex.request).toMatchObject({
      method: 'POST',
      url: `${server.url}/v1/pay-connect/transactions/generate/?x=1`,
      path: '/v1/pay-connect/transactions/generate/',
      body: { amount: 150 },
    });
    expect(ex.request.headers).toMatchObject({ 'content-type': 'application/json', 'x-pay-connect-integrator-id': 'int-1' });
    expect(ex.operationId).toBe('generateTransaction');
    expect(resolveOperation).toHaveBeenCalledWith('POST', '/v1/pay-connect/transactions/generate/');
    expect(exchanges.map((e) => e.seq)).toEqual([1, 2]);
    expect(exchanges[0]?.operationId).toBeUndefined();
    expect(new Date(ex.startedAt).toISOString()).toBe(ex.startedAt);
    expect(ex.durationMs).toBeGreaterThanOrEqual(0);
    expect(ex.response).toMatchObject({ status: 200, body: { transaction_id: 'tx-1' } });
  });

  it('keeps a non-JSON answer as raw text only (body undefined), and an empty one as empty', async () => {
    const { client } = await start(
      (req, res) => {
        if (req.url === '/empty/') return res.writeHead(204).end();
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
      },
      { credentials: undefined },
    );
    const html = await client.request({ method: 'GET', path: '/html', auth: 'none' });
    expect(html).toMatchObject({ status: 502, body: undefined, rawBody: '<html>bad gateway</html>' });
    expect(html.exchange.response).toMatchObject({ status: 502, rawBody: '<html>bad gateway</html>' });
    expect(html.exchange.response?.body).toBeUndefined();
    const empty = await client.request({ method: 'GET', path: '/empty', auth: 'none' });
    expect(empty).toMatchObject({ status: 204, body: undefined, rawBody: '' });
    expect(empty.exchange.response?.body).toBeUndefined();
  });

  it('records an error when there is no answer', async () => {
    const exchanges: Exchange[] = [];
    const { client } = await start(() => {}, { baseUrl: `http://127.0.0.1:${await closedPort()}`, onExchange: (e) => exchanges.push(e) });
    await expect(client.request({ method: 'POST', path: '/v1/x/', body: {}, auth: 'none' })).rejects.toMatchObject({
      code: 'PCC_TARGET_UNREACHABLE',
    });
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.response).toBeUndefined();
    expect(exchanges[0]?.error).toMatchObject({ code: 'PCC_TARGET_UNREACHABLE', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('works as a plain undici interceptor, without a request context', async () => {
    const server = await startTestServer((_req, res) => sendJson(res, { ok: true }));
    const agent = new Agent();
    const sink = vi.fn();
    try {
      const res = await agent.compose(recorder({ sink })).request({ origin: server.url, path: '/p/?q=1', method: 'GET' });
      expect(await res.body.text()).toBe('{"ok":true}');
      expect(sink).toHaveBeenCalledTimes(1);
      expect(sink.mock.calls[0]?.[0]).toMatchObject({ seq: 1, request: { path: '/p/' }, response: { rawBody: '{"ok":true}' } });
      expect(sink.mock.calls[0]?.[1]).toBeUndefined();
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
