import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import { postGuard } from './post-guard.ts';
import { recorder } from './recorder.ts';
import { useClient } from './test-fixtures.ts';
import { sendJson, startTestServer } from './test-server.ts';

const start = useClient();
const POST = { method: 'POST', path: '/v1/pay-connect/transactions/generate/', body: { amount: 100 }, auth: 'none' } as const;
const GET = { method: 'GET', path: '/v1/pay-connect/config/', auth: 'none' } as const;
const reset = (n: number, resetUntil: number) => (_req: unknown, res: { socket: { destroy(): void } | null; end(b: string): void }) => {
  if (n <= resetUntil) res.socket?.destroy();
  else res.end('{"ok":true}');
};

describe('no automatic retry of a POST', () => {
  it('a POST met by a connection reset is sent exactly once and fails with a recorded error', async () => {
    const { server, client, exchanges } = await start((req, res, n) => reset(n, Infinity)(req, res), { credentials: undefined });
    await expect(client.request(POST)).rejects.toMatchObject({ code: 'PCC_TARGET_UNREACHABLE' });
    await new Promise((r) => setTimeout(r, 100)); // room for a (wrong) late re-send to show up
    expect(server.seen.map((r) => r.method)).toEqual(['POST']);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.error?.code).toBe('PCC_TARGET_UNREACHABLE');
  });

  it('a GET met by a reset is sent once more and may succeed', async () => {
    const { server, client, exchanges } = await start((req, res, n) => reset(n, 1)(req, res), { credentials: undefined });
    const res = await client.request(GET);
    expect(res.body).toEqual({ ok: true });
    expect(server.seen).toHaveLength(2);
    expect(exchanges.map((e) => e.error?.code ?? e.response?.status)).toEqual(['PCC_TARGET_UNREACHABLE', 200]);
  });

  it('a GET is re-sent only once', async () => {
    const { server, client } = await start((req, res, n) => reset(n, Infinity)(req, res), { credentials: undefined });
    await expect(client.request(GET)).rejects.toMatchObject({ code: 'PCC_TARGET_UNREACHABLE' });
    expect(server.seen).toHaveLength(2);
  });

  it('postGuard refuses a second send of the same POST by any outer interceptor', async () => {
    const server = await startTestServer((_req, res) => sendJson(res, { transaction_id: 'tx' }));
    const agent = new Agent();
    const exchanges: Exchange[] = [];
    // A rogue interceptor that sends every request again once the first answer is in.
    const sendTwice: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => dispatch(opts, {
      onRequestStart: () => {},
      onResponseEnd: () => dispatch(opts, handler),
      onResponseError: (c, e) => handler.onResponseError?.(c, e),
    });
    const send = (method: 'GET' | 'POST') => agent.compose(postGuard(), recorder({ sink: (e) => exchanges.push(e) }), sendTwice)
      .request({ origin: server.url, path: '/v1/x/', method, pcc: {} } as Dispatcher.RequestOptions);
    try {
      await expect(send('POST')).rejects.toMatchObject({ code: 'PCC_RETRY_FORBIDDEN' });
      expect(server.seen).toHaveLength(1);
      expect(exchanges.map((e) => e.error?.code ?? e.response?.status)).toEqual([200, 'PCC_RETRY_FORBIDDEN']);
      const again = await send('GET'); // GET is safe: the guard lets the second send through
      await again.body.text();
      expect(server.seen.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
