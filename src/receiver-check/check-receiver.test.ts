import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { capFor, checkReceiver } from './check-receiver.ts';
import { RECEIVER_RULES } from './rules.ts';
import { sendDelivery } from './send.ts';

describe('sendDelivery and checkReceiver', () => {
  it('sends the exact bytes and headers, records the answer, and gives up at the cap', async () => {
    let got: { headers: Record<string, unknown>; body: Buffer } | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got = { headers: req.headers, body: Buffer.concat(chunks) };
        if (req.url === '/hang') return;
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const body = Buffer.from('{"b": 1,\n "a": "\\u00e9"}');
      const s = await sendDelivery(7, {
        url: new URL(`${base}/ok`),
        shownUrl: `${base}/ok`,
        headers: { Signature: 'ab'.repeat(32), 'Content-Type': 'application/json' },
        body,
        capMs: 2000,
      });
      expect(got!.body.equals(body)).toBe(true);
      expect(got!.headers.signature).toBe('ab'.repeat(32));
      expect(got!.headers['content-length']).toBe(String(body.length));
      expect(s.status).toBe(202);
      expect(s.exchange).toMatchObject({
        seq: 7,
        request: { method: 'POST', path: '/ok', body: body.toString() },
        response: { status: 202, body: { ok: true } },
      });
      const hang = await sendDelivery(8, { url: new URL(`${base}/hang`), shownUrl: `${base}/hang`, headers: {}, body, capMs: 150 });
      expect(hang.status).toBeUndefined();
      expect(hang.errorCode).toBe('PCC_TIMEOUT');
      expect(hang.exchange.error?.message).toContain('150 ms');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('an answer that echoes the key has it redacted; a receiver accepting everything fails the refusal rules', async () => {
    const secret = 'echoed-secret-key-value';
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(`ok ${secret}`));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/h`;
    try {
      const record = await checkReceiver({ url: new URL(url), shownUrl: url, secret, timeoutMs: 2000, strict: false, userAgent: 'test' });
      expect(JSON.stringify(record)).not.toContain(secret);
      const failed = record.tests.filter((t) => t.state === 'failed').map((t) => t.parameters.rule);
      expect(failed).toEqual([
        'receiver.unsigned-refused',
        'receiver.wrong-signature-refused',
        'receiver.other-key-refused',
        'receiver.tampered-refused',
      ]);
      const warned = record.tests.filter((t) => t.state === 'passed' && t.findings.length > 0).map((t) => t.parameters.rule);
      expect(warned).toEqual(['receiver.oversized-refused', 'receiver.malformed-refused']);
      expect(record.tests).toHaveLength(RECEIVER_RULES.length + 1);
      const valid = record.tests[0]!;
      expect(valid.exchangeCount).toBe(13);
      expect((valid.exchanges[0] as { operationId?: string }).operationId).toBe('transactionEvent');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it(
    'given up as too slow: a rule cut short fails on the late answer it saw, after the root; the ' +
      'second wait is only the timeout; the rest are not checked',
    async () => {
      let received = 0;
      const server = createServer((req, res) => {
        received++;
        req.resume();
        req.on('end', () => setTimeout(() => res.writeHead(500).end(), 300));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/h`;
      try {
        const record = await checkReceiver({
          url: new URL(url),
          shownUrl: url,
          secret: 'k'.repeat(16),
          timeoutMs: 100,
          strict: false,
          userAgent: 'test',
        });
        expect(received).toBe(2);
        expect(record.tests.map((t) => [t.parameters.rule, t.state])).toEqual([
          ['receiver.answered-in-time', 'failed'],
          ['receiver.valid-accepted', 'failed'],
          ...RECEIVER_RULES.slice(1).map((r) => [r.id, 'skipped']),
        ]);
        const [root, cut] = record.tests;
        expect(cut!.exchanges.map((e) => (e as { error?: { message: string } }).error?.message)).toEqual([
          undefined,
          'no whole answer within 100 ms',
        ]);
        expect(root!.findings[0]).toMatchObject({
          severity: 'failure',
          message: expect.stringMatching(/^no answer within 100 ms to 2 deliveries in a row .* 10 rules not checked; fix: /),
        });
        expect(cut!.findings[0]!.message).toMatch(
          /^1 of the 1 judged \(of 13: the receiver was given up\) deliveries not accepted \(2xx\): transaction\.initiated: answered 500; fix: /,
        );
        for (const t of record.tests.slice(2)) {
          expect(t.blockedBy).toMatchObject({ check: 'receiver.answered-in-time', test: root!.name });
          expect(t.skipReason).toMatch(/: not checked, none of its \d+ deliver(y|ies) sent$/);
        }
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    },
  );

  it('the cap: the timeout and as long again, at least 5 s more', () => {
    expect(capFor(10_000)).toBe(20_000);
    expect(capFor(300)).toBe(5_300);
  });
});
