/**
 * A slow but legal service for the tests: a loopback HTTP proxy (port 0) in front of a service that
 * holds back the answers to the requests whose path matches, by a set time, and passes everything
 * else on as it is. The service behind it is unchanged; only its pace differs, as a real sandbox's
 * may where no document sets a time limit.
 */
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayingProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** How many answers were held back. */
  delayed(): number;
  close(): Promise<void>;
}

/** Starts a proxy before `upstream` (http://127.0.0.1:PORT) that answers requests whose path matches `path` `delayMs` late. */
export async function startDelayingProxy(upstream: string, path: RegExp, delayMs: number): Promise<DelayingProxy> {
  const up = new URL(upstream);
  let delayed = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = request(
        { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            const send = () => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(body));
            };
            if (!path.test(new URL(req.url ?? '/', upstream).pathname)) return send();
            delayed++;
            const timer = setTimeout(() => {
              timers.delete(timer);
              send();
            }, delayMs);
            timers.add(timer);
          });
        },
      );
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    delayed: () => delayed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
