/** The `record` option, the forged delivery and `sim --record FILE`. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import type { RecordedDelivery, RecordedRequest, SimRecordEntry } from './recording.ts';
import { serveSimulator } from './serve-simulator.ts';
import { Http, P, pairClient, sleep, startReceiver, startTestSim, waitFinal } from './testkit.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function until(pred: () => boolean, timeoutMs = 3000): Promise<void> {
  for (let i = 0; i < timeoutMs / 10 && !pred(); i++) await sleep(10);
  if (!pred()) throw new Error('condition not reached');
}

describe('recording', () => {
  it('records every request and delivery, redacted, with token aliases; forges one delivery per receiver', async () => {
    const entries: SimRecordEntry[] = [];
    const t = await startTestSim({ record: (e) => entries.push(e), forgeWebhook: true });
    // A receiver that checks the signature with the pairing's key once it knows it.
    let key = '';
    const receiver = await startReceiver((_n, d) =>
      createHmac('sha256', key).update(d.raw).digest('hex') === d.headers.signature ? 200 : 403,
    );
    try {
      const c = await pairClient(t, { webhookUrl: receiver.url });
      key = c.pairing.webhook_secret_key as string;
      const gen = await c.post(P.generate, { amount: 1000 }, { 'content-type': 'application/json' });
      await waitFinal(c, gen.json.transaction_id);
      await until(() => entries.some((e) => e.type === 'delivery' && e.forged));
      await until(() => entries.some((e) => e.type === 'delivery' && !e.forged && e.status === 'SUCCESS'));

      expect(entries[0]).toMatchObject({ type: 'start', url: t.sim.url, seed: 7, tokenLifetimeSec: 3600 });
      const requests = entries.filter((e): e is RecordedRequest => e.type === 'request');
      expect(
        requests
          .map((r) => `${r.method} ${r.path === P.pair || r.path === P.token || r.path === P.generate ? r.path : 'status'}`)
          .slice(0, 3),
      ).toEqual([`POST ${P.pair}`, `POST ${P.token}`, `POST ${P.generate}`]);
      const pair = requests[0]!;
      expect(pair.headers['x-pay-connect-integrator-id']).toBe('sim-integrator');
      expect(pair.response).toMatchObject({
        client_secret: '[REDACTED]',
        webhook_secret_key: '[REDACTED]',
        terminal_id: expect.any(String),
      });
      expect(requests[1]!.body).toMatchObject({ client_secret: '[REDACTED]', client_id: c.pairing.client_id });
      expect(requests[1]!.response).toMatchObject({ access_token: '[token-1]', expires_in: '3600' });
      const gen1 = requests[2]!;
      expect(gen1).toMatchObject({ token: 'token-1', status: 200, body: { amount: 1000 }, headers: { authorization: 'Bearer [token-1]' } });
      expect(gen1.t).toBeGreaterThanOrEqual(requests[1]!.t);
      expect(requests.at(-1)!.response).toMatchObject({ status: 'SUCCESS' });

      const deliveries = entries.filter((e): e is RecordedDelivery => e.type === 'delivery');
      const forged = deliveries.filter((d) => d.forged);
      expect(forged).toHaveLength(1);
      expect(forged[0]).toMatchObject({ url: receiver.url, answer: 403, transactionId: gen.json.transaction_id });
      expect(deliveries.filter((d) => !d.forged).every((d) => d.answer === 200)).toBe(true);

      const text = entries.map((e) => JSON.stringify(e)).join('\n');
      for (const s of t.sim.issuedSecrets()) expect(text).not.toContain(s);
    } finally {
      await receiver.close();
      await t.close();
    }
  });

  it('forgeDelivery sends one wrongly signed delivery on demand; null without a webhook pairing', async () => {
    const t = await startTestSim();
    const receiver = await startReceiver(() => 204);
    try {
      expect(await t.sim.forgeDelivery()).toBeNull();
      const c = await pairClient(t, { webhookUrl: receiver.url });
      const gen = await c.post(P.generate, { amount: 1000 });
      await receiver.waitFor((d) => d.length > 0);
      const before = receiver.deliveries.length;
      const out = await t.sim.forgeDelivery();
      expect(out).toMatchObject({ url: receiver.url, answer: 204 });
      // Genuine deliveries of the payment may still arrive around it: exactly one after the mark is forged.
      const valid = (d: (typeof receiver.deliveries)[number]) =>
        d.headers.signature ===
        createHmac('sha256', c.pairing.webhook_secret_key as string)
          .update(d.raw)
          .digest('hex');
      expect(receiver.deliveries.slice(before).filter((d) => !valid(d))).toHaveLength(1);
      expect(receiver.deliveries.slice(0, before).every(valid)).toBe(true);
      await waitFinal(c, gen.json.transaction_id);
    } finally {
      await receiver.close();
      await t.close();
    }
  });

  it('sim --record FILE (serveSimulator with record) appends JSON lines; an unwritable file is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pcc-rec-'));
    dirs.push(dir);
    const file = join(dir, 'rec.jsonl');
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) };
    const ac = new AbortController();
    const running = serveSimulator({ options: {}, otps: 1, record: file }, io, { signal: ac.signal });
    await until(() => out.join('').includes('press Ctrl+C'));
    const text = out.join('');
    expect(text).toContain(`certify-client --recording ${file}`);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)![1]!;
    const otp = /^ {2}(\d{6})$/m.exec(text)![1]!;
    const http = new Http(url);
    const pair = await http.call('POST', P.pair, { headers: { 'x-pay-connect-integrator-id': 'x' }, body: { name: 'n', otp } });
    await http.close();
    ac.abort();
    expect(await running).toBe(0);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SimRecordEntry);
    expect(lines.map((l) => l.type)).toEqual(['start', 'request']);
    expect(readFileSync(file, 'utf8')).not.toContain(pair.json.client_secret);

    const err2: string[] = [];
    const code = await serveSimulator(
      { options: {}, otps: 5, record: join(dir, 'missing', 'rec.jsonl') },
      { stdout: () => undefined, stderr: (s: string) => void err2.push(s) },
    );
    expect(code).toBe(2);
    expect(err2.join('')).toMatch(/^PCC_USAGE: --record .* cannot be opened for appending \(ENOENT\)\n {2}fix: /);
  });
});
