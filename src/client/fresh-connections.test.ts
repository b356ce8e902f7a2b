/**
 * The client against real servers on loopback that close connections the way services, proxies and
 * load balancers do: after 1 s idle without announcing it, at the very moment a request arrives on a
 * reused connection, after every answer (`Connection: close`), and right after reading a POST. A
 * correct service is never blamed for a request it did not get, and a POST is never sent twice.
 * And against servers that announce how long they keep a connection (`Keep-Alive: timeout=N`, as
 * Node's does): a POST goes on a connection just used, never on one that idled.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import { createPayConnectClient, type PayConnectClient } from './client.ts';
import { JUST_USED_MS, announcesKeepAlive } from './fresh-connections.ts';

type Behaviour = 'idle-1s' | 'race-on-reuse' | 'close-always' | 'drop-posts' | 'announce-5s' | 'announce-2s';

interface Seen {
  method: string;
  url: string;
  connection: number;
  onReusedConnection: boolean;
}

/** A server that answers `{"ok":true}` and closes connections as `behaviour` says. */
async function startClosingServer(behaviour: Behaviour) {
  const seen: Seen[] = [];
  const served = new WeakMap<Socket, number>();
  const ids = new WeakMap<Socket, number>();
  const idle = new WeakMap<Socket, NodeJS.Timeout>();
  let connections = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    clearTimeout(idle.get(socket));
    const before = served.get(socket) ?? 0;
    served.set(socket, before + 1);
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', connection: ids.get(socket) ?? 0, onReusedConnection: before > 0 });
      // The request arrived as the server closed the connection: it is gone, unanswered.
      if (behaviour === 'race-on-reuse' && before > 0) return socket.destroy();
      if (behaviour === 'drop-posts' && req.method === 'POST') return socket.destroy();
      const body = '{"ok":true}';
      const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': body.length };
      if (behaviour === 'close-always') headers.connection = 'close';
      res.writeHead(200, headers);
      res.end(body);
      if (behaviour === 'idle-1s')
        res.on('finish', () =>
          idle.set(
            socket,
            setTimeout(() => socket.destroy(), 1000),
          ),
        );
    });
  });
  // No Keep-Alive header and no timer of Node's own: the close is the server's, unannounced. Or
  // Node's own keep-alive, announced: `Keep-Alive: timeout=5` (or 2) on every answer.
  server.keepAliveTimeout = behaviour === 'announce-5s' ? 5_000 : behaviour === 'announce-2s' ? 2_000 : 0;
  server.on('connection', (s: Socket) => ids.set(s, ++connections));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (let close = open.pop(); close; close = open.pop()) await close();
});

async function setUp(behaviour: Behaviour) {
  const server = await startClosingServer(behaviour);
  const exchanges: Exchange[] = [];
  const client = createPayConnectClient({
    baseUrl: server.url,
    integratorId: 'int-1',
    timeoutMs: 5_000,
    onExchange: (e) => exchanges.push(e),
  });
  open.push(
    () => server.close(),
    () => client.close(),
  );
  return { server, client, exchanges };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = (client: PayConnectClient) => client.request({ method: 'GET', path: '/v1/pay-connect/config/', auth: 'none' });
const post = (client: PayConnectClient, n: number) =>
  client.request({ method: 'POST', path: '/v1/pay-connect/transactions/generate/', body: { amount: n }, auth: 'none' });

/** Keeps the event loop busy, as CPU-heavy work on a loaded runner does: nothing else runs meanwhile. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* busy */
  }
}

describe('connections that close', () => {
  it('a POST after a GET never goes on the pooled connection, so a close as it arrives cannot lose it', async () => {
    const { server, client, exchanges } = await setUp('race-on-reuse');
    for (let i = 1; i <= 3; i++) {
      expect((await get(client)).status).toBe(200);
      expect((await post(client, i)).status).toBe(200);
    }
    const posts = server.seen.filter((s) => s.method === 'POST');
    expect(posts).toHaveLength(3);
    expect(posts.every((s) => !s.onReusedConnection)).toBe(true);
    // A GET that met the close was sent once more, on a new connection, and is on the record twice.
    const dropped = server.seen.filter((s) => s.method === 'GET' && s.onReusedConnection);
    expect(exchanges.filter((e) => e.error).length).toBe(dropped.length);
    expect(exchanges.filter((e) => e.response?.status === 200)).toHaveLength(6);
  });

  it("a client whose event loop stalled past the server's unannounced 1 s keep-alive loses nothing", async () => {
    const { server, client } = await setUp('idle-1s');
    expect((await get(client)).status).toBe(200);
    expect((await post(client, 1)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    stall(1300);
    const [a, b, c] = await Promise.all([post(client, 2), get(client), post(client, 3)]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(server.seen.filter((s) => s.method === 'POST').map((s) => s.url)).toHaveLength(3);
  });

  it('a server that closes after every answer is answered every time, each POST sent once', async () => {
    const { server, client } = await setUp('close-always');
    for (let i = 1; i <= 3; i++) {
      expect((await get(client)).status).toBe(200);
      expect((await post(client, i)).status).toBe(200);
    }
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'POST', 'GET', 'POST', 'GET', 'POST']);
    expect(server.seen.every((s) => !s.onReusedConnection)).toBe(true);
  });

  it('a POST the server read and then dropped is sent once and fails as no answer, on the record', async () => {
    const { server, client, exchanges } = await setUp('drop-posts');
    expect((await get(client)).status).toBe(200);
    await expect(post(client, 1)).rejects.toMatchObject({ code: 'PCC_TARGET_UNREACHABLE' });
    await new Promise((r) => setTimeout(r, 200)); // room for a (wrong) late re-send to show up
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
    expect(exchanges.at(-1)?.error?.code).toBe('PCC_TARGET_UNREACHABLE');
    expect(exchanges.filter((e) => e.request.method === 'POST')).toHaveLength(1);
  });

  it('where the service announces a keep-alive, a POST goes on a connection just used, never on one that idled', async () => {
    const { server, client } = await setUp('announce-5s');
    // Until an answer on a kept connection says so (a POST's own connection is closed after it), a
    // POST gets a connection of its own. Then the first opens one that the next requests ride.
    expect((await post(client, 1)).status).toBe(200);
    expect((await get(client)).status).toBe(200);
    expect((await post(client, 2)).status).toBe(200);
    expect((await post(client, 3)).status).toBe(200);
    expect((await get(client)).status).toBe(200);
    expect((await post(client, 4)).status).toBe(200);
    await sleep(JUST_USED_MS + 150);
    expect((await post(client, 5)).status).toBe(200);
    const [first, , ...rest] = server.seen;
    const fifth = rest.pop();
    expect(first?.onReusedConnection).toBe(false);
    // POSTs 2 to 4 and the GETs ride kept connections (one answered a moment before may not be free
    // yet: undici's pool then opens a second, used by the next request), the fifth a new one.
    expect(rest.filter((s) => s.method === 'POST' && s.onReusedConnection).length).toBeGreaterThanOrEqual(1);
    expect(new Set(rest.map((s) => s.connection)).size).toBeLessThanOrEqual(3);
    expect(fifth?.onReusedConnection).toBe(false);
    expect(server.seen.slice(0, -1).map((s) => s.connection)).not.toContain(fifth?.connection);
  });

  it("a keep-alive announced for 2 s or less is within undici's margin: every POST on a connection of its own", async () => {
    const { server, client } = await setUp('announce-2s');
    for (let i = 1; i <= 3; i++) {
      expect((await get(client)).status).toBe(200);
      expect((await post(client, i)).status).toBe(200);
    }
    expect(server.seen.filter((s) => s.method === 'POST').every((s) => !s.onReusedConnection)).toBe(true);
  });

  it('announces a keep-alive when the header gives a timeout, in any case and order', () => {
    expect(announcesKeepAlive({ 'keep-alive': 'timeout=5' })).toBe(true);
    expect(announcesKeepAlive({ 'keep-alive': 'max=100, Timeout = 30' })).toBe(true);
    expect(announcesKeepAlive({ 'keep-alive': 'max=100' })).toBe(false);
    expect(announcesKeepAlive({ 'keep-alive': 'notimeout=5' })).toBe(false);
    expect(announcesKeepAlive({})).toBe(false);
  });
});
