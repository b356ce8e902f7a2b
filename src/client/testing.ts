/**
 * Fixtures for the client's tests: a fake Pay-Connect over loopback (token endpoint, bearer check)
 * and a client wired to it, both closed after each test.
 */
import type { ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import { createPayConnectClient, type PayConnectClient, type PayConnectClientOptions } from './client.ts';
import { sendJson, startTestServer, type SeenRequest, type TestRoute, type TestServer } from './test-server.ts';

/** The credentials the fixture client starts with. */
export const CREDS = { client_id: 'cid-1', client_secret: 'cs-very-secret-1' };

/** A fake service: issues `tok-1`, `tok-2`, ... and answers 401 to a missing or revoked token. */
export interface FakePayConnect {
  route: TestRoute;
  /** Tokens issued so far. */
  issued: () => number;
  /** Tokens the fake answers 401 to. */
  revoked: Set<string>;
  /** Requests other than token requests. */
  calls: (server: TestServer) => SeenRequest[];
}

/** A fake service; `answer` handles authorised non-token requests (default: echo as JSON). */
export function fakePayConnect(
  options: { expiresIn?: string; answer?: (req: SeenRequest, res: ServerResponse, n: number) => void } = {},
): FakePayConnect {
  let issued = 0;
  const revoked = new Set<string>();
  const route: TestRoute = (req, res, n) => {
    if (req.url.startsWith('/v1/auth/token/')) {
      issued++;
      return sendJson(res, {
        access_token: `tok-${issued}`,
        expires_in: options.expiresIn ?? '3600',
        token_type: 'Bearer',
        scope: 'default',
      });
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    const open = req.url.startsWith('/v1/pay-connect/pair/');
    if (!open && (token === undefined || revoked.has(token))) return sendJson(res, { error: 'unauthorized' }, 401);
    if (options.answer) return options.answer(req, res, n);
    sendJson(res, { method: req.method, url: req.url });
  };
  return { route, revoked, issued: () => issued, calls: (s) => s.seen.filter((r) => !r.url.startsWith('/v1/auth/token/')) };
}

/** What {@link useClient} gives a test. */
export interface ClientFixture {
  server: TestServer;
  client: PayConnectClient;
  exchanges: Exchange[];
}

/** Registers cleanup and returns a function that starts a server with `route` and a client on it. */
export function useClient(): (route: TestRoute, options?: Partial<PayConnectClientOptions>) => Promise<ClientFixture> {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (let close = open.pop(); close; close = open.pop()) await close();
  });
  return async (route, options = {}) => {
    const server = await startTestServer(route);
    open.push(() => server.close());
    const exchanges: Exchange[] = [];
    const client = createPayConnectClient({
      baseUrl: server.url,
      integratorId: 'int-1',
      credentials: CREDS,
      timeoutMs: 5_000,
      onExchange: (e) => exchanges.push(e),
      ...options,
    });
    open.push(() => client.close());
    return { server, client, exchanges };
  };
}
