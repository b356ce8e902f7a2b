import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startForwarder, type Forwarder } from './forwarder.ts';
import { loadTransport } from './transport.ts';

let service: Server;
let forwarder: Forwarder;
const seen: { method: string; url: string; host: string; auth: string; body: string }[] = [];
beforeAll(async () => {
  service = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, host: req.headers.host!, auth: req.headers.authorization ?? '', body });
      res.writeHead(201, { 'content-type': 'application/json', 'x-answer': 'yes' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  forwarder = await startForwarder(`http://127.0.0.1:${(service.address() as AddressInfo).port}/paycon`, loadTransport({}, {}));
});
afterAll(async () => {
  await forwarder.close();
  await new Promise((r) => service.close(r));
});

test('a request goes on under the base path, with its method, headers and body; the answer comes back whole', async () => {
  const res = await request(`${forwarder.url}/v1/pay-connect/transactions/generate/`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: '{"amount":2000}',
  });
  expect(res.statusCode).toBe(201);
  expect(res.headers['x-answer']).toBe('yes');
  expect(await res.body.text()).toBe('{"ok":true}');
  const port = (service.address() as AddressInfo).port;
  expect(seen).toEqual([
    {
      method: 'POST',
      url: '/paycon/v1/pay-connect/transactions/generate/',
      host: `127.0.0.1:${port}`,
      auth: 'Bearer t',
      body: '{"amount":2000}',
    },
  ]);
});

test('a service that cannot be reached is a 502 naming the forwarder, not a hang', async () => {
  const dead = await startForwarder('http://127.0.0.1:9', loadTransport({}, {}));
  try {
    const res = await request(`${dead.url}/v1/x/`);
    expect(res.statusCode).toBe(502);
    expect(await res.body.text()).toMatch(/^payconnect-conformance forwarder: /);
  } finally {
    await dead.close();
  }
});
