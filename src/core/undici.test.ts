/**
 * The undici parts loaded alone (undici.ts): the very classes of the entry point, a dispatcher that
 * sends with them, and none of what the entry point adds (fetch, WebSocket, the mocks).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, EnvHttpProxyAgent, requestWith } from './undici.ts';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url })),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('undici, loaded in parts', () => {
  it("exports the entry point's own classes", () => {
    expect(Agent).toBe(undici.Agent);
    expect(EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent);
  });

  it('requestWith sends the method, path and query over the dispatcher given', async () => {
    const agent = new Agent();
    try {
      const res = await requestWith(agent, `${base}/v1/pay-connect/config/?a=1&b=two`, { method: 'POST', body: '{}' });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ method: 'POST', url: '/v1/pay-connect/config/?a=1&b=two' });
    } finally {
      await agent.close();
    }
  });

  it('a process that loads only these parts can send, and never loads fetch, WebSocket or the mocks', async () => {
    const shim = fileURLToPath(new URL('./undici.ts', import.meta.url));
    const script = `
      const { Agent, requestWith } = await import(${JSON.stringify(shim)});
      const agent = new Agent();
      const res = await requestWith(agent, ${JSON.stringify(`${base}/x`)}, { method: 'GET' });
      await res.body.dump();
      await agent.close();
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/undici/'));
      console.log(JSON.stringify({ status: res.statusCode, loaded }));`;
    // A child process (this one's server must go on answering), with nothing else of the toolkit loaded.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 20_000,
    });
    const out = JSON.parse(stdout) as { status: number; loaded: string[] };
    expect(out.status).toBe(200);
    expect(out.loaded.some((f) => f.endsWith('/lib/dispatcher/agent.js'))).toBe(true);
    expect(out.loaded.filter((f) => /\/lib\/(web|mock|cache)\/|\/undici\/index\.js$/.test(f))).toEqual([]);
  });
});
