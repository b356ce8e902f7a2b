/**
 * The front of the Pact mock, over real loopback: requests and answers pass unchanged, and a POST
 * answered 200 with a created id makes it post the pact's messages about that id, signed.
 */
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { startWebhookReceiver } from '../../webhooks/index.ts';
import { EXAMPLE } from '../common/names.ts';
import { EXAMPLE_IDS, OUTCOMES } from '../common/states.ts';
import { type MockFront, startMockFront } from './mock-front.ts';
import { webhookMessages } from './messages.ts';

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A stand-in for the Pact mock: answers by path, and records what it was sent. */
async function fakeMock(answers: Record<string, { status: number; body: unknown }>): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(parts).toString('utf8') });
      const a = answers[req.url!] ?? { status: 500, body: { detail: 'no interaction' } };
      res.writeHead(a.status, { 'content-type': 'application/json', 'x-pact': 'yes' });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  stops.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function front(mockUrl: string, webhookUrl: string, webhookKey: string = EXAMPLE.webhookKey): Promise<MockFront> {
  const f = await startMockFront({ mockFor: () => mockUrl, messages: webhookMessages(), webhookUrl, webhookKey });
  stops.push(() => f.close());
  return f;
}

const declined = OUTCOMES.find((o) => o.slug === 'declined')!;

test("requests and answers pass unchanged, and a created transaction's message is posted, validly signed", async () => {
  const mock = await fakeMock({ '/v1/pay-connect/transactions/generate/': { status: 200, body: { transaction_id: declined.exampleId } } });
  const rx = await startWebhookReceiver({ secret: EXAMPLE.webhookKey });
  stops.push(() => rx.close());
  const f = await front(mock.url, rx.loopbackUrl);
  const res = await fetch(`${f.url}/v1/pay-connect/transactions/generate/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer x', 'x-pay-connect-integrator-id': 'i-1' },
    body: '{"amount":1251}',
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-pact')).toBe('yes');
  expect(await res.json()).toEqual({ transaction_id: declined.exampleId });
  expect(mock.seen).toHaveLength(1);
  expect(mock.seen[0]).toMatchObject({ method: 'POST', url: '/v1/pay-connect/transactions/generate/', body: '{"amount":1251}' });
  expect(mock.seen[0]!.headers).toMatchObject({ authorization: 'Bearer x', 'x-pay-connect-integrator-id': 'i-1' });
  const d = await rx.waitFor((x) => x.eventId !== undefined, { timeoutMs: 5000, description: 'the posted message' });
  expect(d).toMatchObject({ event: 'transaction.declined', signature: 'valid', status: 200 });
  expect((d.body as { data: { transaction_id: string; status: string } }).data).toMatchObject({
    transaction_id: declined.exampleId,
    status: 'DECLINED',
  });
  await f.close();
  expect(f.posted()).toEqual([{ event: 'transaction.declined', id: declined.exampleId, status: 200 }]);
  expect(rx.deliveries()).toHaveLength(1);
});

test('an operation created is posted about the operation, not its transaction', async () => {
  const path = `/v1/pay-connect/transactions/${EXAMPLE_IDS.preauth}/preauth/increment/`;
  const mock = await fakeMock({
    [path]: { status: 200, body: { operation_id: EXAMPLE_IDS.increment, transaction_id: EXAMPLE_IDS.preauth } },
  });
  const rx = await startWebhookReceiver({ secret: EXAMPLE.webhookKey });
  stops.push(() => rx.close());
  const f = await front(mock.url, rx.loopbackUrl);
  await (await fetch(`${f.url}${path}`, { method: 'POST', body: '{"amount":100}' })).arrayBuffer();
  await f.close();
  expect(f.posted()).toEqual([{ event: 'operation.success', id: EXAMPLE_IDS.increment, status: 200 }]);
  expect(rx.deliveries()[0]?.signature).toBe('valid');
});

test('nothing is posted for a GET, a refusal, or an id no message is about', async () => {
  const mock = await fakeMock({
    '/status': { status: 200, body: { transaction_id: declined.exampleId, status: 'DECLINED' } },
    '/refused': { status: 400, body: { transaction_id: declined.exampleId } },
    '/other': { status: 200, body: { transaction_id: EXAMPLE_IDS.linkedRefund } },
  });
  const rx = await startWebhookReceiver({ secret: EXAMPLE.webhookKey });
  stops.push(() => rx.close());
  const f = await front(mock.url, rx.loopbackUrl);
  expect((await fetch(`${f.url}/status`)).status).toBe(200);
  expect((await fetch(`${f.url}/refused`, { method: 'POST', body: '{}' })).status).toBe(400);
  expect((await fetch(`${f.url}/other`, { method: 'POST', body: '{}' })).status).toBe(200);
  await f.close();
  expect(f.posted()).toEqual([]);
  expect(rx.deliveries()).toEqual([]);
});

test('signed with another key, the receiver finds the signature invalid', async () => {
  const mock = await fakeMock({ '/create': { status: 200, body: { transaction_id: declined.exampleId } } });
  const rx = await startWebhookReceiver({ secret: EXAMPLE.webhookKey });
  stops.push(() => rx.close());
  const f = await front(mock.url, rx.loopbackUrl, 'not-the-pairing-key');
  await (await fetch(`${f.url}/create`, { method: 'POST', body: '{}' })).arrayBuffer();
  await f.close();
  expect(rx.deliveries().map((d) => d.signature)).toEqual(['invalid']);
});

test('a receiver that is down: the post is logged as an error, the answer still reaches the client', async () => {
  const mock = await fakeMock({ '/create': { status: 200, body: { transaction_id: declined.exampleId } } });
  const f = await front(mock.url, 'http://127.0.0.1:9/webhooks/none');
  expect((await fetch(`${f.url}/create`, { method: 'POST', body: '{}' })).status).toBe(200);
  await f.close();
  expect(f.posted()).toEqual([{ event: 'transaction.declined', id: declined.exampleId, status: 'error' }]);
});

test("a request handed on before gets the mock's answer again without the mock; a new header, body or a 5xx goes to the mock", async () => {
  const mock = await fakeMock({
    '/create': { status: 200, body: { transaction_id: declined.exampleId } },
    '/status': { status: 200, body: { status: 'DECLINED' } },
  });
  const rx = await startWebhookReceiver({ secret: EXAMPLE.webhookKey });
  stops.push(() => rx.close());
  const f = await front(mock.url, rx.loopbackUrl);
  const get = (auth: string) =>
    fetch(`${f.url}/status`, { headers: { authorization: auth } }).then(async (r) => [r.status, r.headers.get('x-pact'), await r.json()]);
  expect(await get('Bearer a')).toEqual([200, 'yes', { status: 'DECLINED' }]);
  expect(await get('Bearer a')).toEqual([200, 'yes', { status: 'DECLINED' }]);
  expect(await get('Bearer b')).toEqual([200, 'yes', { status: 'DECLINED' }]);
  expect(mock.seen.map((s) => s.headers.authorization)).toEqual(['Bearer a', 'Bearer b']);
  // The same creating POST twice: one request to the mock, its message posted each time, as a service would.
  for (let i = 0; i < 2; i++) await (await fetch(`${f.url}/create`, { method: 'POST', body: '{"amount":1251}' })).arrayBuffer();
  await (await fetch(`${f.url}/create`, { method: 'POST', body: '{"amount":1252}' })).arrayBuffer();
  expect(mock.seen.filter((s) => s.url === '/create').map((s) => s.body)).toEqual(['{"amount":1251}', '{"amount":1252}']);
  // Undeclared (the mock's 500): handed on every time.
  for (let i = 0; i < 2; i++) expect((await fetch(`${f.url}/nowhere`)).status).toBe(500);
  expect(mock.seen.filter((s) => s.url === '/nowhere')).toHaveLength(2);
  await f.close();
  expect(f.posted()).toHaveLength(3);
});
