/**
 * A reverse proxy that holds every answer `delayMs` before passing it on: a service far away or slow to
 * answer, in front of `sim` (bench/conformance.ts --delay-ms). The request goes upstream at once; the
 * answer's head and body are sent once `delayMs` has passed since the request came in. Connections on
 * both sides follow the client's: a `connection: close` request is answered and closed.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  url: string;
  close: () => Promise<void>;
}

export function startDelayProxy(upstream: string, delayMs: number): Promise<DelayProxy> {
  const up = new URL(upstream);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const came = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = httpRequest({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          setTimeout(() => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          }, Math.max(0, came + delayMs - Date.now()));
        });
      });
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      out.end(Buffer.concat(chunks));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}
