/**
 * A loopback HTTP server for the client's tests: 127.0.0.1, port 0, every request and its body kept,
 * every connection torn down on close so no test is left hanging.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; `n` counts requests from 1. */
export type TestRoute = (req: SeenRequest, res: ServerResponse, n: number, raw: IncomingMessage) => unknown;

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a test server answering every request with `route`. */
export async function startTestServer(route: TestRoute): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const req = { method: raw.method ?? '', url: raw.url ?? '', headers: raw.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(req);
      void Promise.resolve(route(req, res, seen.length, raw)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `body` as JSON with status `status`. */
export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Answers `status` with a JSON detail and, when given, `Retry-After: retryAfter`. */
export function refuse(res: ServerResponse, status: number, retryAfter?: string): void {
  const text = JSON.stringify({ detail: 'slow down' });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
  });
  res.end(text);
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
