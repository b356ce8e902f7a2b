import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { startWebhookHub, type WebhookHub } from './start-webhook-hub.ts';
import { signBody } from './verify-signature.ts';

const hubs: WebhookHub[] = [];
async function hub(options: Parameters<typeof startWebhookHub>[0] = {}): Promise<WebhookHub> {
  const h = await startWebhookHub(options);
  hubs.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

/** POSTs `body` signed with `secret` (unsigned when null) to `url`; resolves with the status. */
function post(url: string, body: string, secret: string | null): Promise<number> {
  const bytes = Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          ...(secret === null ? {} : { signature: signBody(bytes, secret) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

const event = (id: string) =>
  JSON.stringify({ data: { transaction_id: 't1', status: 'SUCCESS' }, event: 'transaction.success', event_id: id });

describe('startWebhookHub over loopback', () => {
  it('serves two pairings on one port, each verifying with its own key at its own path', async () => {
    const h = await hub();
    const a = h.open('pcc-1', { secret: 'key-a' });
    const b = h.open('pcc-2', { secret: 'key-b' });
    expect(a.url).toBe(`http://127.0.0.1:${h.port}/webhooks/pcc-1`);
    expect(b.port).toBe(a.port);
    expect(await post(a.url, event('e-1'), 'key-a')).toBe(200);
    expect(await post(b.url, event('e-2'), 'key-a')).toBe(403);
    expect(await post(`${b.url}?attempt=2`, event('e-3'), 'key-b')).toBe(200);
    expect(a.deliveries().map((d) => [d.eventId, d.signature])).toEqual([['e-1', 'valid']]);
    expect(b.deliveries().map((d) => [d.eventId, d.signature])).toEqual([
      ['e-2', 'invalid'],
      ['e-3', 'valid'],
    ]);
  });

  it('answers 404 at a path that is no open slot, and counts it', async () => {
    const h = await hub();
    const a = h.open('p', { secret: 'k' });
    expect(await post(`http://127.0.0.1:${h.port}/webhooks/other`, event('e'), 'k')).toBe(404);
    expect(await post(`http://127.0.0.1:${h.port}/webhook`, event('e'), 'k')).toBe(404);
    expect(h.stray()).toBe(2);
    expect(a.deliveries()).toEqual([]);
  });

  it('keeps failures on purpose and duplicates per slot', async () => {
    const h = await hub();
    const a = h.open('a', { secret: 'k' });
    const b = h.open('b', { secret: 'k' });
    a.failNext(1);
    expect(await post(b.url, event('e-1'), 'k')).toBe(200);
    expect(await post(a.url, event('e-1'), 'k')).toBe(500);
    expect(await post(a.url, event('e-1'), 'k')).toBe(200);
    expect(b.deliveries()[0]).toMatchObject({ duplicate: false, failedOnPurpose: false });
    expect(a.deliveries().map((d) => d.status)).toEqual([500, 200]);
  });

  it('closing one slot leaves the others receiving; opening a name twice is a bug', async () => {
    const h = await hub();
    const a = h.open('a', { secret: 'k' });
    const b = h.open('b', { secret: 'k' });
    await a.close();
    expect(await post(a.url, event('e'), 'k')).toBe(404);
    expect(await post(b.url, event('e'), 'k')).toBe(200);
    let error: unknown;
    try {
      h.open('b');
    } catch (e) {
      error = e;
    }
    expect(isToolkitError(error) && error.code).toBe('PCC_INTERNAL');
    expect([h.isOpen('a'), h.isOpen('b')]).toEqual([false, true]);
  });

  it('appends the slot path to a public base URL, and reads the slot back from a stored URL', async () => {
    const h = await hub({ publicUrl: 'https://tunnel.example/base/' });
    const a = h.open('vault#1');
    expect(a.url).toBe('https://tunnel.example/base/webhooks/vault%231');
    expect(a.loopbackUrl).toBe(`http://127.0.0.1:${h.port}/webhooks/vault%231`);
    expect(h.slotOf(a.url)).toBe('vault#1');
    expect(h.slotOf('https://elsewhere.example/webhooks/x')).toBeUndefined();
  });

  it('listens on a fixed port again once the previous hub closed', async () => {
    const first = await hub();
    const port = first.port;
    await first.close();
    const second = await hub({ port });
    expect(second.port).toBe(port);
    expect(await post(second.open('x', { secret: 'k' }).url, event('e'), 'k')).toBe(200);
    let error: unknown;
    try {
      await startWebhookHub({ port });
    } catch (e) {
      error = e;
    }
    expect(isToolkitError(error) && error.code).toBe('PCC_WEBHOOK_LISTEN');
  });
});
