import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { startSimulator } from '../simulator/index.ts';
import { assertReachable, gatewayPageOf } from './safety.ts';

describe('gatewayPageOf: an HTML page where the API answers JSON', () => {
  test("nginx's client-certificate page names --client-cert", () => {
    const page = gatewayPageOf({
      status: 400,
      type: 'text/html',
      text: '<html><head><title>400 No required SSL certificate was sent</title></head><body><center><h1>400 Bad Request</h1></center></body></html>',
    })!;
    expect(page.title).toBe('400 No required SSL certificate was sent');
    const e = page.error('https://gw.example');
    expect(e.code).toBe('PCC_TARGET_GATEWAY');
    expect(e.hint).toMatch(/--client-cert/);
  });
  test('plain HTTP to the TLS port names https://', () => {
    expect(
      gatewayPageOf({ status: 400, type: 'text/html', text: '<title>400 The plain HTTP request was sent to HTTPS port</title>' })!.error(
        'http://gw.example',
      ).hint,
    ).toMatch(/use https:\/\//);
  });
  test('any other page (a 502, a login page) names the base path', () => {
    expect(gatewayPageOf({ status: 502, type: 'text/html; charset=utf-8', text: '<h1>Bad Gateway</h1>' })!.title).toBe('Bad Gateway');
    expect(gatewayPageOf({ status: 404, type: 'text/html', text: '' })!.error('https://gw.example').hint).toMatch(/include the path/);
  });
  test('JSON, or any non-HTML answer, is the service speaking: its findings are judged later', () => {
    expect(gatewayPageOf({ status: 401, type: 'application/json', text: '' })).toBeUndefined();
    expect(gatewayPageOf({ status: 200, type: 'text/plain', text: '' })).toBeUndefined();
  });
});

describe('assertReachable against real loopback servers', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  const serve = (handler: RequestListener) =>
    new Promise<string>((resolve) => {
      const s = createServer(handler);
      servers.push(s);
      s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`));
    });

  test("asks under the base URL's path", async () => {
    const seen: string[] = [];
    const base = await serve((req, res) => {
      seen.push(req.url!);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{}');
    });
    await assertReachable(`${base}/paycon`);
    expect(seen).toEqual(['/paycon/v1/pay-connect/config/']);
  });

  test("a gateway's HTML error page is exit 2 with its title", async () => {
    const base = await serve((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><title>502 Bad Gateway</title></html>'),
    );
    await expect(assertReachable(base)).rejects.toMatchObject({
      code: 'PCC_TARGET_GATEWAY',
      message: expect.stringContaining('"502 Bad Gateway"'),
    });
  });

  test('http:// to a port that serves TLS: PCC_TARGET_TLS asking for https://, not "is it running"', async () => {
    const sim = await startSimulator({ tls: true });
    try {
      const plain = sim.url.replace(/^https:/, 'http:');
      await expect(assertReachable(plain)).rejects.toMatchObject({
        code: 'PCC_TARGET_TLS',
        message: expect.stringContaining('its port speaks TLS'),
        hint: expect.stringContaining('use https://'),
      });
    } finally {
      await sim.close();
    }
  });

  test('nothing listening: unreachable', async () => {
    await expect(assertReachable('http://127.0.0.1:9')).rejects.toMatchObject({ code: 'PCC_TARGET_UNREACHABLE' });
  });
});
