import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createPayConnectClient } from './client.ts';
import { ToolkitError } from '../core/errors.ts';
import { useClient } from './testing.ts';

const start = useClient();

describe('timeout', () => {
  it('turns a missing answer into PCC_TIMEOUT, recorded in the Exchange, and does not re-send the GET', async () => {
    const { server, client, exchanges } = await start(
      () => {
        /* never answers */
      },
      { timeoutMs: 300, credentials: undefined },
    );
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
    const { client, exchanges } = await start(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
      },
      { timeoutMs: 300, credentials: undefined },
    );
    await expect(client.request({ method: 'GET', path: '/v1/drip/', auth: 'none' })).rejects.toMatchObject({ code: 'PCC_TIMEOUT' });
    expect(exchanges[0]?.response).toMatchObject({ status: 200, rawBody: '{"partial":' });
    expect(exchanges[0]?.error?.code).toBe('PCC_TIMEOUT');
  });

  it('lets an answer inside the deadline through', async () => {
    const { client } = await start((_req, res) => setTimeout(() => res.end('late but fine'), 100), {
      timeoutMs: 1_000,
      credentials: undefined,
    });
    const res = await client.request({ method: 'GET', path: '/v1/ok/', auth: 'none' });
    expect(res.rawBody).toBe('late but fine');
    expect(res.exchange.error).toBeUndefined();
  });

  it('an answer that came while this process stood still is read, not timed out', async () => {
    // The service is another process: it answers 100 ms after the request, while this one is busy.
    const child: ChildProcess = spawn(
      process.execPath,
      [
        '-e',
        `
      const s = require('node:http').createServer((q, r) => setTimeout(() => r.end('{"ok":true}'), 100));
      s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
      const client = createPayConnectClient({ baseUrl: `http://127.0.0.1:${String(chunk).trim()}`, integratorId: 'i', timeoutMs: 300 });
      try {
        const answer = client.request({ method: 'GET', path: '/v1/pay-connect/config/', auth: 'none' });
        await new Promise((r) => setTimeout(r, 50)); // the request is on the wire
        // Stand still in the check phase: the next turn of the loop runs its timers before its I/O.
        await new Promise((r) => setImmediate(r));
        const until = Date.now() + 700;
        while (Date.now() < until) {
          /* the event loop stands still past the 300 ms deadline */
        }
        const res = await answer;
        expect(res.status).toBe(200);
        expect(res.exchange.error).toBeUndefined();
      } finally {
        await client.close();
      }
    } finally {
      child.kill();
    }
  });
});
