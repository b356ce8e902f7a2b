/**
 * A loopback front that sends each request it gets on to a service through the toolkit's transport
 * (CA file, client certificate, proxy, base path), for a program that makes its own connections and
 * knows none of those settings: the Pact verifier's core (Rust) talks plain HTTP to it, and every
 * connection to the service is still the toolkit's.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { createDispatcher, type Transport } from './transport.ts';

/** Hop-by-hop headers (RFC 9110 7.6.1), and host: the far side's are its own. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

export interface Forwarder {
  /** http://127.0.0.1:PORT: a request to `${url}/x` goes to `${baseUrl}/x`. */
  url: string;
  close(): Promise<void>;
}

/** Starts a forwarder to `baseUrl` (origin and base path) over `transport`. */
export async function startForwarder(baseUrl: string, transport: Transport, timeoutMs = 30_000): Promise<Forwarder> {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const dispatcher: Dispatcher = createDispatcher(transport, { connect: { timeout: timeoutMs } });
  const server = createServer((req, res) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers as IncomingHttpHeaders))
      if (value !== undefined && !HOP.has(name)) headers[name] = value;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    dispatcher
      .request({
        origin: base.origin,
        path: `${prefix}${req.url ?? '/'}`,
        method: req.method as Dispatcher.HttpMethod,
        headers,
        ...(hasBody ? { body: req } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      })
      .then(async (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP.has(name)) out[name] = value;
        res.writeHead(answer.statusCode, out);
        for await (const chunk of answer.body) res.write(chunk);
        res.end();
      })
      .catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`payconnect-conformance forwarder: ${(e as Error).message}`);
      });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await dispatcher.close();
    },
  };
}
