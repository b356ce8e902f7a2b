import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../core/errors.ts';
import { useClient } from './test-fixtures.ts';

const start = useClient();

describe('timeout', () => {
  it('turns a missing answer into PCC_TIMEOUT, recorded in the Exchange, and does not re-send the GET', async () => {
    const { server, client, exchanges } = await start(() => { /* never answers */ }, { timeoutMs: 300, credentials: undefined });
    const t0 = Date.now();
    const err = await client.request({ method: 'GET', path: '/v1/slow/', auth: 'none' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolkitError);
    expect(err).toMatchObject({ code: 'PCC_TIMEOUT', message: expect.stringContaining('300 ms') });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.response).toBeUndefined();
    expect(exchanges[0]?.error?.code).toBe('PCC_TIMEOUT');
    expect(exchanges[0]?.durationMs).toBeGreaterThanOrEqual(250);
    expect(server.seen).toHaveLength(1);
  });

  it('covers the body too: headers in time, body stalled', async () => {
    const { client, exchanges } = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    }, { timeoutMs: 300, credentials: undefined });
    await expect(client.request({ method: 'GET', path: '/v1/drip/', auth: 'none' })).rejects.toMatchObject({ code: 'PCC_TIMEOUT' });
    expect(exchanges[0]?.response).toMatchObject({ status: 200, rawBody: '{"partial":' });
    expect(exchanges[0]?.error?.code).toBe('PCC_TIMEOUT');
  });

  it('lets an answer inside the deadline through', async () => {
    const { client } = await start((_req, res) => setTimeout(() => res.end('late but fine'), 100), { timeoutMs: 1_000, credentials: undefined });
    const res = await client.request({ method: 'GET', path: '/v1/ok/', auth: 'none' });
    expect(res.rawBody).toBe('late but fine');
    expect(res.exchange.error).toBeUndefined();
  });
});
