/**
 * Issue 39: a service that follows the documents and pairs with any `webhook_url` (an empty one, one
 * the contract's URL pattern does not take) is never blamed. No document refuses such a pairing:
 * sandbox.md refuses only consumed, malformed or never-valid OTPs, public-profile.md makes webhook_url
 * optional; the pattern is the contract's own (`x-ours`). The service here is the simulator behind a
 * loopback front that pairs without a webhook where the webhook_url is no http(s) URL.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

const PAIR = '/v1/pay-connect/pair/';

let sim: SimulatorHandle;
let front: Server;
let frontUrl: string;

/** The webhook_url the simulator is sent: undefined (none) where the service takes one it cannot use. */
function lenient(body: Buffer): Buffer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return body;
  const b = parsed as Record<string, unknown>;
  if (typeof b.webhook_url !== 'string') return body;
  let usable = false;
  try {
    usable = ['http:', 'https:'].includes(new URL(b.webhook_url).protocol);
  } catch {
    /* no URL: paired without a webhook */
  }
  if (usable) return body;
  delete b.webhook_url;
  return Buffer.from(JSON.stringify(b));
}

function forward(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const body = req.method === 'POST' && req.url === PAIR ? lenient(raw) : raw;
    const target = new URL(req.url ?? '/', sim.url);
    const out = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host, 'content-length': String(body.length) } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  });
}

beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
  front = createServer(forward);
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
});
afterAll(async () => {
  front.closeAllConnections();
  await new Promise((resolve) => front.close(resolve));
  await sim.close();
});

test('the front pairs with the issue\'s body: webhook_url "" answers 200', async () => {
  const res = await fetch(`${frontUrl}${PAIR}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pay-connect-integrator-id': sim.integratorId },
    body: JSON.stringify({ name: '𐩐ଦ', otp: sim.mintOtp(), webhook_url: '' }),
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { webhook_secret_key: unknown }).webhook_secret_key).toBeNull();
});

test('the pairing properties file nothing against it, even with --strict', async () => {
  const vault = join(tempDir(), 'vault.json');
  const r = await runCli([
    'run',
    '--target',
    frontUrl,
    '--integrator-id',
    sim.integratorId,
    '--profile',
    'sandbox',
    '--vault',
    vault,
    '--deadline',
    '5s',
    '--settle',
    '100ms',
    '--suite',
    'properties',
    '--grep',
    'pair: invalid bodies',
    '--runs',
    '200',
    '--seed',
    '39',
    '--strict',
    '--no-html',
  ]);
  expect(r.summary?.findings ?? [], JSON.stringify(r.summary?.findings, null, 1)).toEqual([]);
  expect(r.summary!.counts.passed).toBe(1);
  expect(r.code, r.stderr).toBe(0);
});
