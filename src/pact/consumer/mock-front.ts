/**
 * The front of the Pact mock: what the suites talk to under `run --target pact`. It hands every
 * request to the Pact mock server unchanged and its answer back unchanged, and does what a Pact mock
 * cannot: it posts webhooks. When a POST is answered 200 with the id of what it created (a transaction,
 * or an operation), the pact's messages about that id are posted to the pairing's webhook URL, the
 * example body byte for byte, signed with the test key, as a service posts the status changes that
 * follow a request. It posts each once and never retries (a stateless mock shows no retry schedule).
 *
 * A request it has handed on before, byte for byte (method, URL, headers, body), gets the mock's
 * answer again without asking the mock: the mock is stateless, so it would answer the same, and each
 * request costs it CPU (matching against every interaction it holds; half of a pact run's requests
 * are polls and tokens asked again). Only answers below 500 are kept: a request the mock refuses as
 * undeclared is handed on every time.
 *
 * Written by hand: a proxy of a dozen lines on node:http and undici, where a proxy library would
 * bring more than it saves and still not know when to post.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { type WebhookMessage, postedMessages } from './messages.ts';

/** Options of {@link startMockFront}. */
export interface MockFrontOptions {
  /**
   * The base URL of the Pact mock server that holds the interactions of a request's method and path
   * (its query left off): the pact target has a mock server per operation.
   */
  mockFor: (method: string, path: string) => string;
  /** The pact's webhook messages. */
  messages: readonly WebhookMessage[];
  /** Where the webhooks go: the pairing's webhook URL as this machine reaches it. */
  webhookUrl: string;
  /** The key the webhooks are signed with (the pairing's webhook_secret_key). */
  webhookKey: string;
}

/** A running front. */
export interface MockFront {
  url: string;
  /** Deliveries posted so far, and how each was answered (`error` when the post failed). */
  posted(): readonly { event: string; id: string; status: number | 'error' }[];
  /** Waits for the posts under way, then stops. */
  close(): Promise<void>;
}

/** Hop-by-hop headers a proxy does not pass on. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade', 'proxy-connection', 'te', 'trailer']);

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/** The id a creating answer names: the operation's, else the transaction's. */
function createdId(body: Buffer): string | undefined {
  try {
    const v = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const id = typeof v.operation_id === 'string' ? v.operation_id : v.transaction_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the front on loopback, any free port. */
export async function startMockFront(o: MockFrontOptions): Promise<MockFront> {
  const mockFor = (method: string, url: string) => o.mockFor(method, url.split('?')[0]!).replace(/\/+$/, '');
  const log: { event: string; id: string; status: number | 'error' }[] = [];
  const pending = new Set<Promise<void>>();

  // Each id's bodies and signatures, made once: the same id is created again and again.
  const byId = new Map<string, ReturnType<typeof postedMessages>>();
  const post = (id: string) => {
    if (!byId.has(id)) byId.set(id, postedMessages(o.messages, id, o.webhookKey));
    for (const m of byId.get(id)!) {
      const p = request(o.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', signature: m.signature },
        body: m.body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      }).then(
        async (res) => {
          await res.body.dump();
          log.push({ event: m.event, id, status: res.statusCode });
        },
        () => {
          log.push({ event: m.event, id, status: 'error' });
        },
      );
      const tracked = p.finally(() => pending.delete(tracked));
      pending.add(tracked);
    }
  };

  // The mock's answers by request, byte for byte (see above).
  const answers = new Map<string, { status: number; headers: Record<string, string | string[]>; body: Buffer }>();
  const ask = async (method: 'GET', url: string, headers: Record<string, string | string[]>, body: Buffer) => {
    const key = JSON.stringify([method, url, Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1)), body.toString('base64')]);
    const known = answers.get(key);
    if (known) return known;
    const answer = await request(`${mockFor(method, url)}${url}`, { method, headers, ...(body.length > 0 ? { body } : {}) });
    const out = Buffer.from(await answer.body.arrayBuffer());
    const back: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP.has(k)) back[k] = v;
    const got = { status: answer.statusCode, headers: back, body: out };
    if (got.status < 500) answers.set(key, got);
    return got;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
    const answer = await ask((req.method ?? 'GET') as 'GET', req.url ?? '/', headers, body);
    const out = answer.body;
    res.writeHead(answer.status, answer.headers);
    res.end(out);
    if (req.method === 'POST' && answer.status === 200) {
      const id = createdId(out);
      if (id !== undefined) post(id);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // The mock itself did not answer: a 502 the suites report as what the target did.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`the Pact mock did not answer: ${(e as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posted: () => [...log],
    async close() {
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
