import type { ServerResponse } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import { postGuard } from './post-guard.ts';
import { recorder } from './recorder.ts';
import type { AttemptNote } from './request-options.ts';
import { useClient } from './testing.ts';
import { refuse, sendJson, startTestServer } from './test-server.ts';

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
    const post = await sendTwice((res) => sendJson(res, { transaction_id: 'tx' }), 'POST');
    expect(post).toEqual({ outcome: 'PCC_RETRY_FORBIDDEN', sends: 1, recorded: [200, 'PCC_RETRY_FORBIDDEN'] });
    // GET is safe: the guard lets the second send through.
    expect(await sendTwice((res) => sendJson(res, {}), 'GET')).toMatchObject({ outcome: 200, sends: 2 });
  });

  it('postGuard lets through only a marked re-send after a 429 or 503 with Retry-After', async () => {
    const marked: AttemptNote = { resend: { after: 'retry-after', waitedMs: 0, n: 1 } };
    expect(await sendTwice((res) => refuse(res, 429, '0'), 'POST', marked)).toMatchObject({ outcome: 200, sends: 2 });
    expect(await sendTwice((res) => refuse(res, 503, '0'), 'POST', marked)).toMatchObject({ outcome: 200, sends: 2 });
    // Not marked, refused without Retry-After, another status, an answer: no second send.
    expect(await sendTwice((res) => refuse(res, 429, '0'), 'POST')).toMatchObject({ outcome: 'PCC_RETRY_FORBIDDEN', sends: 1 });
    expect(await sendTwice((res) => refuse(res, 429), 'POST', marked)).toMatchObject({ outcome: 'PCC_RETRY_FORBIDDEN', sends: 1 });
    expect(await sendTwice((res) => refuse(res, 500, '0'), 'POST', marked)).toMatchObject({ outcome: 'PCC_RETRY_FORBIDDEN', sends: 1 });
    expect(await sendTwice((res) => sendJson(res, {}), 'POST', marked)).toMatchObject({ outcome: 'PCC_RETRY_FORBIDDEN', sends: 1 });
  });
});

/**
 * Sends a request through the guard, the recorder and a rogue interceptor that sends it once more
 * when the first answer is in (with `attempt` as the second send's note); the server answers the
 * first send with `first` and the second with 200.
 */
async function sendTwice(first: (res: ServerResponse) => void, method: 'GET' | 'POST', attempt?: AttemptNote) {
  const server = await startTestServer((_req, res, n) => (n === 1 ? first(res) : sendJson(res, { second: true })));
  const agent = new Agent();
  const exchanges: Exchange[] = [];
  const again: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart: () => {},
      onResponseEnd: () => dispatch({ ...opts, ...(attempt ? { attempt } : {}) } as Dispatcher.DispatchOptions, handler),
      onResponseError: (c, e) => handler.onResponseError?.(c, e),
    });
  try {
    const sent = agent.compose(postGuard(), recorder({ sink: (e) => exchanges.push(e) }), again).request({
      origin: server.url,
      path: '/v1/x/',
      method,
      body: method === 'POST' ? '{}' : undefined,
      pcc: {},
    } as Dispatcher.RequestOptions);
    const outcome = await sent.then(
      async (r) => (await r.body.text(), r.statusCode),
      (e: { code?: string }) => e.code,
    );
    return { outcome, sends: server.seen.length, recorded: exchanges.map((e) => e.error?.code ?? e.response?.status) };
  } finally {
    await agent.close();
    await server.close();
  }
}
