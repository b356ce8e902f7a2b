/**
 * Retry-After against real loopback servers: a 429 or 503 that asks to wait is waited out and the
 * request sent again, a POST too, on the record as a re-send; a POST without such an answer is never
 * sent again; the caps on the wait and on the re-sends hold.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import type { RecordedExchange } from './request-options.ts';
import { parseRetryAfter } from './retry-after.ts';
import { fakePayConnect, useClient } from './testing.ts';
import { refuse, sendJson } from './test-server.ts';

const start = useClient();
const open = { credentials: undefined } as const;
const GET = { method: 'GET', path: '/v1/pay-connect/transactions/tx-1/status/', auth: 'none' } as const;
const POST = { method: 'POST', path: '/v1/pay-connect/transactions/generate/', body: { amount: 100 }, auth: 'none' } as const;

const marks = (exchanges: Exchange[]) =>
  (exchanges as RecordedExchange[]).map((e) => ({
    status: e.response?.status ?? e.error?.code,
    ...(e.retryAfter ? { retryAfter: e.retryAfter } : {}),
    ...(e.resend ? { resend: e.resend } : {}),
  }));

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates; anything else asks nothing', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:02 GMT', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now)).toBe(0); // in the past: no wait
    for (const bad of [undefined, '', '1.5', '-1', '1e3', 'soon', 'Wed, 99 Foo 2026 GMT'])
      expect(parseRetryAfter(bad, now)).toBeUndefined();
  });
});

describe('retryAfter', () => {
  it('waits as a 429 asks, sends the GET again, and records both attempts', async () => {
    const { server, client, exchanges } = await start(
      (_req, res, n) => (n === 1 ? refuse(res, 429, '1') : sendJson(res, { status: 'SUCCESS' })),
      open,
    );
    const t0 = Date.now();
    const res = await client.request(GET);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(res).toMatchObject({ status: 200, body: { status: 'SUCCESS' } });
    expect(server.seen.map((r) => r.method)).toEqual(['GET', 'GET']);
    const [refused, resent] = exchanges;
    expect(marks(exchanges)).toEqual([
      { status: 429, retryAfter: { status: 429, waitMs: 1000, honoured: true, inARow: 1 } },
      { status: 200, resend: { after: 'retry-after', of: refused!.seq, waitedMs: 1000, n: 1 } },
    ]);
    expect(res.exchange).toBe(resent);
    expect(refused!.response?.rawBody).toBe('{"detail":"slow down"}');
  });

  it('sends a POST refused with 429 and Retry-After once more after the wait, on the record as such', async () => {
    const { server, client, exchanges } = await start(
      (_req, res, n) => (n === 1 ? refuse(res, 429, '0') : sendJson(res, { transaction_id: 'tx-1' })),
      open,
    );
    const res = await client.request(POST);
    expect(res).toMatchObject({ status: 200, body: { transaction_id: 'tx-1' } });
    expect(server.seen.map((r) => `${r.method} ${r.body}`)).toEqual(['POST {"amount":100}', 'POST {"amount":100}']);
    expect(marks(exchanges)).toEqual([
      { status: 429, retryAfter: { status: 429, waitMs: 0, honoured: true, inARow: 1 } },
      { status: 200, resend: { after: 'retry-after', of: exchanges[0]!.seq, waitedMs: 0, n: 1 } },
    ]);
  });

  it('honours a 503 with an HTTP date, and the bearer token rides along on the re-send', async () => {
    const fake = fakePayConnect({
      answer: (_req, res, n) => (n === 2 ? refuse(res, 503, new Date(Date.now() - 5000).toUTCString()) : sendJson(res, { ok: true })),
    });
    const { server, client, exchanges } = await start(fake.route);
    const res = await client.request({ ...POST, auth: 'auto' });
    expect(res.status).toBe(200);
    expect(fake.calls(server).map((r) => `${r.method} ${r.headers.authorization}`)).toEqual(['POST Bearer tok-1', 'POST Bearer tok-1']);
    expect(marks(exchanges).slice(1)).toEqual([
      { status: 503, retryAfter: { status: 503, waitMs: 0, honoured: true, inARow: 1 } },
      { status: 200, resend: expect.objectContaining({ n: 1 }) },
    ]);
  });

  it('never sends a POST again after a 500, a 503 without Retry-After, a 400 with Retry-After, or no answer', async () => {
    const answers: Record<string, (res: ServerResponse) => void> = {
      '/500/': (res) => refuse(res, 500),
      '/500-ra/': (res) => refuse(res, 500, '0'),
      '/503/': (res) => refuse(res, 503),
      '/400-ra/': (res) => refuse(res, 400, '0'),
      '/drop/': (res) => res.socket?.destroy(),
    };
    const { server, client, exchanges } = await start((req, res) => answers[req.url]!(res), open);
    for (const path of Object.keys(answers)) {
      const sent = client.request({ ...POST, path });
      if (path === '/drop/') await expect(sent).rejects.toMatchObject({ code: 'PCC_TARGET_UNREACHABLE' });
      else await sent;
    }
    await new Promise((r) => setTimeout(r, 100)); // room for a (wrong) late re-send to show up
    expect(server.seen.map((r) => r.url)).toEqual(Object.keys(answers));
    expect(marks(exchanges)).toEqual([
      { status: 500 },
      { status: 500 },
      { status: 503 },
      { status: 400 },
      { status: 'PCC_TARGET_UNREACHABLE' },
    ]);
  });

  it('a POST whose re-send after Retry-After gets no answer is not sent a third time', async () => {
    const { server, client, exchanges } = await start((_req, res, n) => (n === 1 ? refuse(res, 429, '0') : res.socket?.destroy()), open);
    await expect(client.request(POST)).rejects.toMatchObject({ code: 'PCC_TARGET_UNREACHABLE' });
    await new Promise((r) => setTimeout(r, 100));
    expect(server.seen).toHaveLength(2);
    expect(marks(exchanges).map((m) => m.status)).toEqual([429, 'PCC_TARGET_UNREACHABLE']);
  });

  it('sends again at most 3 times: a 4th answer that asks to wait is the answer, and says so', async () => {
    const { server, client, exchanges } = await start((_req, res) => refuse(res, 429, '0'), open);
    const res = await client.request(POST);
    expect(res.status).toBe(429);
    expect(server.seen).toHaveLength(4);
    expect((exchanges as RecordedExchange[]).map((e) => [e.retryAfter?.honoured, e.retryAfter?.inARow, e.resend?.n])).toEqual([
      [true, 1, undefined],
      [true, 2, 1],
      [true, 3, 2],
      [false, 4, 3],
    ]);
    expect((res.exchange as RecordedExchange).retryAfter?.reason).toMatch(/still asked to wait after 3 re-sends/);
  });

  it('does not wait longer than the cap (the request timeout, or retryAfter.maxWaitMs) nor than the request has left', async () => {
    const { server, client, exchanges } = await start((req, res) => refuse(res, 429, req.url.startsWith('/long') ? '600' : '1'), open);
    const t0 = Date.now();
    const long = await client.request({ ...GET, path: '/long/' });
    const short = await client.request({ ...GET, path: '/short/', maxWaitMs: 500 });
    expect(Date.now() - t0).toBeLessThan(500);
    expect([long.status, short.status]).toEqual([429, 429]);
    expect(server.seen).toHaveLength(2);
    expect((exchanges as RecordedExchange[]).map((e) => e.retryAfter?.reason)).toEqual([
      'a wait of 600000 ms is longer than the 5000 ms the client waits',
      'a wait of 1000 ms is longer than the 500 ms the request had left',
    ]);
    const capped = await start((_req, res, n) => (n === 1 ? refuse(res, 503, '1') : sendJson(res, {})), {
      ...open,
      retryAfter: { maxWaitMs: 200 },
    });
    expect((await capped.client.request(GET)).status).toBe(503);
    const none = await start((_req, res, n) => (n === 1 ? refuse(res, 429, '0') : sendJson(res, {})), {
      ...open,
      retryAfter: { maxResends: 0 },
    });
    expect((await none.client.request(POST)).status).toBe(429);
    expect(none.server.seen).toHaveLength(1);
  });
});
