/**
 * Webhook receivers for the tests of `check-receiver`: a correct one, written from sandbox.md and
 * public-profile.md alone (no code of the toolkit: an oracle that shared code with the judge would hide
 * its bugs), and broken ones that each get one thing wrong (`flaw`). Loopback, port 0; `close()` stops it.
 *
 * The correct receiver: POST only; a body above 64 KiB is 413; the HMAC-SHA256 (lowercase hex, key as
 * UTF-8) is computed over the raw bytes received and compared in constant time (403 when missing or
 * wrong); a body that is not a JSON object with data, event and event_id is 400; a duplicate event_id
 * is 200 (already processed); an event it does not know is 200 (ignored); anything else 200.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a broken receiver gets wrong. */
export type ReceiverFlaw =
  | 'none'
  /** Accepts a delivery without a Signature header. */
  | 'accepts-unsigned'
  /** Checks only that the Signature looks like one (64 hex digits). */
  | 'accepts-wrong-signature'
  /** Verifies the HMAC over the parsed object serialised again (compact, sorted keys), not the bytes received. */
  | 'reserialises'
  /** Answers 409 to an event_id it has seen. */
  | 'refuses-duplicates'
  /** Answers 500 to an event name it does not know. */
  | 'fails-unknown-event'
  /** Parses without a guard: a malformed body is a 500. */
  | 'fails-malformed'
  /** Refuses (409) a transaction event older than the state it holds. */
  | 'refuses-out-of-order'
  /** Answers transaction.in_progress after `slowMs`. */
  | 'slow';

export interface TestReceiver {
  url: string;
  /** Deliveries it saw: event (when parsed), the status it answered. */
  seen: { event?: string; status: number }[];
  close(): Promise<void>;
}

const LIMIT = 64 * 1024;
const KNOWN =
  /^(transaction\.(initiated|in_progress|success|canceled|declined|reverted|expired|failed)|operation\.(initiated|in_progress|success|failed|expired))$/;
const RANK: Record<string, number> = { initiated: 0, in_progress: 1 };

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

function hmacHex(secret: string, bytes: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(bytes).digest('hex');
}

function signatureOk(secret: string, bytes: Buffer, header: string | undefined): boolean {
  if (!header || !/^[0-9a-f]{64}$/.test(header)) return false;
  return timingSafeEqual(Buffer.from(hmacHex(secret, bytes), 'hex'), Buffer.from(header, 'hex'));
}

/** Starts a receiver on 127.0.0.1, port 0. */
export async function startTestReceiver(
  secret: string,
  flaw: ReceiverFlaw = 'none',
  opts: { slowMs?: number } = {},
): Promise<TestReceiver> {
  const seenIds = new Set<string>();
  const finalOf = new Map<string, number>();
  const seen: TestReceiver['seen'] = [];
  const answer = (res: ServerResponse, status: number, body: unknown, event?: string) => {
    seen.push({ ...(event ? { event } : {}), status });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const header = req.headers.signature as string | undefined;
    let parsed: unknown;
    const parse = () => {
      if (flaw === 'fails-malformed') return JSON.parse(raw.toString('utf8')) as unknown;
      try {
        return JSON.parse(raw.toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
    };
    // 1. The signature, over the bytes received (the broken ones each their own way).
    if (flaw === 'reserialises') {
      parsed = parse();
      if (parsed === undefined) return answer(res, 400, { detail: 'not JSON' });
      if (!signatureOk(secret, Buffer.from(JSON.stringify(sortKeys(parsed))), header)) return answer(res, 403, { detail: 'bad signature' });
    } else if (flaw === 'accepts-unsigned' && (header === undefined || header === '')) {
      // no signature: let it in
    } else if (flaw === 'accepts-wrong-signature') {
      if (!header || !/^[0-9a-f]{64}$/.test(header)) return answer(res, 403, { detail: 'bad signature' });
    } else if (!signatureOk(secret, raw, header)) {
      return answer(res, 403, { detail: 'bad signature' });
    }
    // 2. The payload.
    parsed ??= parse();
    const p = parsed as { data?: unknown; event?: unknown; event_id?: unknown } | undefined;
    if (
      !p ||
      typeof p !== 'object' ||
      Array.isArray(p) ||
      typeof p.event !== 'string' ||
      typeof p.event_id !== 'string' ||
      typeof p.data !== 'object' ||
      p.data === null
    ) {
      if (flaw === 'fails-malformed') throw new Error('malformed payload');
      return answer(res, 400, { detail: 'bad payload' });
    }
    const event = p.event;
    // 3. At least once: a duplicate was processed already.
    if (seenIds.has(p.event_id))
      return flaw === 'refuses-duplicates'
        ? answer(res, 409, { detail: 'duplicate' }, event)
        : answer(res, 200, { status: 'duplicate' }, event);
    if (!KNOWN.test(event)) {
      if (flaw === 'fails-unknown-event') return answer(res, 500, { detail: `unknown event ${event}` }, event);
      seenIds.add(p.event_id);
      return answer(res, 200, { status: 'ignored' }, event);
    }
    // 4. Out of order: keep the final state, acknowledge the old news.
    const data = p.data as { transaction_id?: string };
    const rank = RANK[event.split('.')[1]!] ?? 2;
    const key = `${event.split('.')[0]}:${data.transaction_id ?? ''}`;
    if (flaw === 'refuses-out-of-order' && (finalOf.get(key) ?? -1) > rank) return answer(res, 409, { detail: 'stale event' }, event);
    finalOf.set(key, Math.max(finalOf.get(key) ?? -1, rank));
    seenIds.add(p.event_id);
    if (flaw === 'slow' && event === 'transaction.in_progress') {
      setTimeout(() => answer(res, 200, { status: 'ok' }, event), opts.slowMs ?? 1000);
      return;
    }
    return answer(res, 200, { status: 'ok' }, event);
  };
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return answer(res, 405, { detail: 'POST only' });
    if (Number(req.headers['content-length'] ?? 0) > LIMIT) {
      res.setHeader('connection', 'close');
      req.resume();
      return answer(res, 413, { detail: 'body too large' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > LIMIT) over = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      if (over) return answer(res, 413, { detail: 'body too large' });
      try {
        handle(req, res, Buffer.concat(chunks));
      } catch (e) {
        answer(res, 500, { detail: (e as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/pay-connect`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
