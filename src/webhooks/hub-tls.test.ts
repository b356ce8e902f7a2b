import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
// Test only: the simulator's throw-away CA makes the certificate (the receiver's code never imports it).
import { createSimTls, type SimTls } from '../simulator/tls.ts';
import { readDeliveryTls } from './start-webhook-receiver.ts';
import { startWebhookHub } from './start-webhook-hub.ts';
import { signBody } from './verify-signature.ts';

let material: SimTls;
beforeAll(async () => {
  material = await createSimTls('127.0.0.1');
});
afterAll(() => material.dispose());

test('with --webhook-tls-cert/-key the hub serves HTTPS, gives https URLs, and verifies deliveries as over HTTP', async () => {
  const dir = join(material.caFile, '..');
  writeFileSync(join(dir, 'hook.pem'), material.cert);
  writeFileSync(join(dir, 'hook.key'), material.key);
  const hub = await startWebhookHub({ tls: readDeliveryTls({ certFile: join(dir, 'hook.pem'), keyFile: join(dir, 'hook.key') }) });
  const agent = new Agent({ connect: { ca: material.caPem } });
  try {
    const rx = hub.open('a', { secret: 'k' });
    expect(rx.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/webhooks\/a$/);
    const body = JSON.stringify({ data: { transaction_id: 't' }, event: 'transaction.status', event_id: 'e1' });
    const res = await request(rx.url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', signature: signBody(Buffer.from(body), 'k') },
      body,
    });
    expect(res.statusCode).toBeLessThan(300);
    await res.body.dump();
    expect(rx.deliveries().map((d) => d.signature)).toEqual(['valid']);
  } finally {
    await agent.close();
    await hub.close();
  }
});

test("a key that is not the certificate's is refused before anything listens", () => {
  const dir = join(material.caFile, '..');
  writeFileSync(join(dir, 'ca-as-cert.pem'), material.caPem);
  writeFileSync(join(dir, 'hook2.key'), material.key);
  expect(() => readDeliveryTls({ certFile: join(dir, 'ca-as-cert.pem'), keyFile: join(dir, 'hook2.key') })).toThrow(/cannot serve HTTPS/);
  expect(() => readDeliveryTls({ certFile: join(dir, 'none.pem'), keyFile: join(dir, 'hook2.key') })).toThrow(
    /--webhook-tls-cert .*none\.pem cannot be read/,
  );
});
