import { Agent, request } from 'node:http';
import { connect, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { signBody } from './verify-signature.ts';
import { startWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from './start-webhook-receiver.ts';

const SECRET = 'sandbox-secret-ĸey';
const open: WebhookReceiver[] = [];

async function start(options: WebhookReceiverOptions = { secret: SECRET }): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver(options);
  open.push(receiver);
  return receiver;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

interface Answer {
  status: number;
  body: string;
}

/** POSTs exact bytes (or streams `chunks` without Content-Length) and resolves with the answer. */
function post(
  url: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
  opts: { method?: string; chunked?: boolean; agent?: Agent } = {},
): Promise<Answer> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...(opts.chunked ? {} : { 'content-length': String(bytes.length) }), ...headers },
        agent: opts.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (opts.chunked) {
      for (let i = 0; i < bytes.length; i += 64 * 1024) req.write(bytes.subarray(i, i + 64 * 1024));
      req.end();
    } else req.end(bytes);
  });
}

function signed(url: string, body: string | Buffer, secret = SECRET): Promise<Answer> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  return post(url, bytes, { Signature: signBody(bytes, secret) });
}

const event = (id: string, kind = 'transaction.success', data: object = { transaction_id: 't1', status: 'SUCCESS' }): string =>
  JSON.stringify({ data, event: kind, event_id: id });

describe('startWebhookReceiver over loopback', () => {
  it('verifies the exact bytes: unsorted keys, unicode and whitespace that re-serialisation would change', async () => {
    const r = await start();
    const raw = '{"event_id":"e-1",  "event":"transaction.success",\n "data":{"transaction_id":"t1","note":"čšž ✓ 🚀","amount":1000}}';
    expect(JSON.stringify(JSON.parse(raw))).not.toBe(raw);
    expect(await signed(r.url, raw)).toEqual({ status: 200, body: '' });
    const [d] = r.deliveries();
    expect(d).toMatchObject({
      seq: 1,
      signature: 'valid',
      status: 200,
      rawBody: raw,
      event: 'transaction.success',
      eventId: 'e-1',
      duplicate: false,
      malformed: false,
      method: 'POST',
      path: '/webhook',
    });
    expect((d!.body as { data: { note: string } }).data.note).toBe('čšž ✓ 🚀');
    expect(new Date(d!.receivedAtIso).getTime()).toBe(d!.receivedAt);
  });

  it('answers 403 to invalid, missing, uppercase and wrong-length signatures and records why', async () => {
    const r = await start();
    const raw = event('e-2');
    const good = signBody(Buffer.from(raw), SECRET);
    const answers = [
      await signed(r.url, raw, 'another-secret'),
      await post(r.url, raw),
      await post(r.url, raw, { Signature: good.toUpperCase() }),
      await post(r.url, raw, { Signature: good.slice(0, 40) }),
      await post(r.url, raw, { Signature: 'not hex at all' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
    expect(JSON.parse(answers[1]!.body)).toEqual({ detail: 'missing Signature header' });
    expect(r.deliveries().map((d) => d.signature)).toEqual(['invalid', 'missing', 'invalid', 'invalid', 'invalid']);
    expect(r.counts()).toMatchObject({ total: 5, valid: 0, invalid: 4, missing: 1 });
    expect(r.eventsFor('t1')).toEqual([]);
  });

  it('accepts duplicates with 200 and counts them', async () => {
    const r = await start();
    const statuses = [
      (await signed(r.url, event('dup'))).status,
      (await signed(r.url, event('dup'))).status,
      (await signed(r.url, '{"no_event_id":true}')).status,
      (await signed(r.url, '{"no_event_id":true}')).status,
      (await signed(r.url, event('other'))).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(r.deliveries().map((d) => d.duplicate)).toEqual([false, true, false, true, false]);
    expect(r.counts()).toMatchObject({ total: 5, valid: 5, duplicates: 2 });
  });

  it('failFirst answers 500 to the first N acceptable deliveries, then 200; failNext re-arms it', async () => {
    const r = await start({ secret: SECRET, failFirst: 2 });
    expect((await post(r.url, event('x'))).status).toBe(403); // an unsigned post does not use the budget
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await signed(r.url, event('retried'))).status);
    expect(statuses).toEqual([500, 500, 200]);
    r.failNext(1);
    expect((await signed(r.url, event('y'))).status).toBe(500);
    expect((await signed(r.url, event('y'))).status).toBe(200);
    expect(r.counts()).toMatchObject({ failedOnPurpose: 3, duplicates: 0, valid: 5 });
    expect(
      r
        .deliveries()
        .filter((d) => d.eventId === 'retried')
        .map((d) => d.failedOnPurpose),
    ).toEqual([true, true, false]);
    expect(r.eventsFor('t1').map((d) => d.eventId)).toEqual(['retried', 'y']);
  });

  it('answers 413 over maxBodyBytes (declared or streamed) and keeps serving; exactly the limit passes', async () => {
    const r = await start();
    const limit = 1024 * 1024;
    const pad = (n: number): string => {
      const head = '{"event_id":"big","pad":"';
      return head + 'x'.repeat(n - head.length - 2) + '"}';
    };
    const atLimit = pad(limit);
    expect(Buffer.byteLength(atLimit)).toBe(limit);
    expect((await signed(r.url, atLimit)).status).toBe(200);
    const over = Buffer.from(pad(limit + 1));
    expect((await post(r.url, over, { Signature: signBody(over, SECRET) })).status).toBe(413);
    const streamed = await post(r.url, Buffer.from(pad(3 * limit)), { Signature: 'a'.repeat(64) }, { chunked: true }).catch(
      (e: NodeJS.ErrnoException) => ({ status: -1, body: e.code ?? '' }),
    );
    // The receiver stops reading; the sender may see the 413 or, still writing, a reset. Never a 200.
    expect([413, -1]).toContain(streamed.status);
    expect((await signed(r.url, event('after'))).status).toBe(200);
    expect(r.counts()).toMatchObject({ tooLarge: 2, valid: 2 });
    expect(r.deliveries()[1]).toMatchObject({ tooLarge: true, status: 413, rawBody: '' });
  });

  it('answers 400 to a validly signed body that is not a JSON object, and records it malformed', async () => {
    const r = await start();
    expect((await signed(r.url, '{"event_id": "e",')).status).toBe(400);
    expect((await signed(r.url, '[1,2]')).status).toBe(400);
    expect((await signed(r.url, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).status).toBe(400);
    expect((await post(r.url, '{oops')).status).toBe(403); // the signature is checked first
    expect(r.counts()).toMatchObject({ total: 4, malformed: 4, valid: 3, missing: 1 });
    expect(r.deliveries()[0]).toMatchObject({ body: undefined, rawBody: '{"event_id": "e",', signature: 'valid' });
  });

  it('survives garbage, aborted requests and wrong methods', async () => {
    const r = await start();
    const garbage = await new Promise<string>((resolve) => {
      const socket = connect(r.port, '127.0.0.1', () => socket.write('\x00\x01GARBAGE \r\n\r\n\r\n'));
      let got = '';
      socket.on('data', (c) => (got += c.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', () => resolve(got));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    await new Promise<void>((resolve) => {
      const socket = connect(r.port, '127.0.0.1', () => {
        socket.write('POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"event_id":"half');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    const get = await post(r.url, '', {}, { method: 'GET' });
    expect(get.status).toBe(405);
    expect((await post(r.url, '', {}, { method: 'PUT' })).status).toBe(405);
    expect((await signed(r.url.replace('/webhook', '/any/other/path/'), event('p'))).status).toBe(200);
    expect(r.deliveries().map((d) => d.path)).toEqual(['/any/other/path/']);
  });

  it('waitFor resolves for past and future deliveries and times out cleanly', async () => {
    const r = await start();
    await signed(r.url, event('past', 'transaction.in_progress'));
    expect((await r.waitFor((d) => d.event === 'transaction.in_progress', { timeoutMs: 1000 })).eventId).toBe('past');
    const future = r.waitFor((d) => d.event === 'transaction.success' && d.signature === 'valid', { timeoutMs: 5000 });
    await signed(r.url, event('future'));
    expect((await future).eventId).toBe('future');
    const started = Date.now();
    const error = await r.waitFor(() => false, { timeoutMs: 100, description: 'nothing' }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(isToolkitError(error) && error.code).toBe('PCC_TIMEOUT');
    expect((error as Error).message).toContain('no webhook delivery matched nothing within 100 ms (2 received');
  });

  it('records signed deliveries as unchecked before the secret is known; setSecret re-verifies them', async () => {
    const r = await start({ secret: null });
    const pendingValid = r.waitFor((d) => d.signature === 'valid', { timeoutMs: 5000 });
    expect((await signed(r.url, event('early'))).status).toBe(200);
    expect((await signed(r.url, event('forged'), 'wrong-key')).status).toBe(200);
    expect((await post(r.url, event('unsigned'))).status).toBe(403);
    expect(r.deliveries().map((d) => d.signature)).toEqual(['unchecked', 'unchecked', 'missing']);
    r.setSecret(SECRET);
    expect(r.deliveries().map((d) => d.signature)).toEqual(['valid', 'invalid', 'missing']);
    expect((await pendingValid).eventId).toBe('early');
    expect((await signed(r.url, event('late'), 'wrong-key')).status).toBe(403);
    expect(r.counts()).toMatchObject({ total: 4, valid: 1, invalid: 2, missing: 1, unchecked: 0 });
  });

  it('eventsFor, onDelivery, redacted headers and publicUrl', async () => {
    const r = await start({ secret: SECRET, publicUrl: 'https://tunnel.example/hook' });
    expect(r.url).toBe('https://tunnel.example/hook');
    expect(r.loopbackUrl).toBe(`http://127.0.0.1:${r.port}/webhook`);
    const seen: string[] = [];
    const off = r.onDelivery((d) => seen.push(d.eventId ?? '?'));
    const body = Buffer.from(event('op-1', 'operation.success', { operation_id: 'o1', transaction_id: 't9' }));
    await post(r.loopbackUrl, body, { Signature: signBody(body, SECRET), Authorization: 'Bearer sekrit' });
    off();
    await signed(r.loopbackUrl, event('tx-1', 'transaction.success', { transaction_id: 't9' }));
    expect(seen).toEqual(['op-1']);
    expect(r.eventsFor('t9').map((d) => d.eventId)).toEqual(['op-1', 'tx-1']);
    expect(r.eventsFor('o1').map((d) => d.eventId)).toEqual(['op-1']);
    expect(r.deliveries()[0]!.headers['authorization']).toBe('[redacted]');
    expect(JSON.stringify(r.deliveries())).not.toContain('sekrit');
    expect(JSON.stringify(r.deliveries())).not.toContain(SECRET);
  });

  it('close() ends keep-alive connections and rejects pending waits', async () => {
    const r = await startWebhookReceiver({ secret: SECRET });
    const agent = new Agent({ keepAlive: true });
    try {
      const body = Buffer.from(event('ka'));
      expect((await post(r.url, body, { Signature: signBody(body, SECRET) }, { agent })).status).toBe(200);
      const pending = r.waitFor(() => false, { timeoutMs: 60_000 }).catch((e: unknown) => e);
      const started = Date.now();
      await r.close();
      expect(Date.now() - started).toBeLessThan(1000);
      expect(isToolkitError(await pending)).toBe(true);
      await r.close(); // idempotent
      await expect(post(r.url, body, {}, {})).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      agent.destroy();
    }
  });

  it('throws PCC_WEBHOOK_LISTEN when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startWebhookReceiver({ secret: null, port }).catch((e: unknown) => e);
      expect(isToolkitError(error) && error.code).toBe('PCC_WEBHOOK_LISTEN');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
