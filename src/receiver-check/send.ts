/**
 * One webhook delivery POSTed to the receiver under test, recorded as an Exchange (the request as sent,
 * the answer as received). The bytes go out exactly as given: no re-encoding, a Content-Length, one
 * connection per delivery, no redirect followed, no retry. The answer is timed; one that takes longer
 * than `capMs` is given up (the socket destroyed).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SecureContext } from 'node:tls';
import type { Exchange } from '../core/index.ts';

/** How much of an answer's body is kept. */
export const MAX_ANSWER_CHARS = 4096;

/** What one delivery needs. */
export interface DeliveryRequest {
  url: URL;
  /** The URL as the reports show it (credentials and query values redacted). */
  shownUrl: string;
  headers: Record<string, string>;
  body: Buffer;
  /** What the reports show of the body (default: the body as text). */
  shownBody?: string;
  /** Give up after this long without a whole answer. */
  capMs: number;
  /** TLS towards an https receiver: the CAs to trust, a client certificate (--ca-file, --client-cert). */
  secureContext?: SecureContext;
}

/** An exchange plus what the rules judge: the status, or why there is none, and the time taken. */
export interface SentDelivery {
  exchange: Exchange;
  status?: number;
  /** `ECONNREFUSED`, `ECONNRESET`, `PCC_TIMEOUT` (no answer within the cap)... */
  errorCode?: string;
  durationMs: number;
}

const headerRecord = (h: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(h)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
  );

/** POSTs one delivery; never throws. `seq` numbers the exchange within the check. */
export function sendDelivery(seq: number, d: DeliveryRequest): Promise<SentDelivery> {
  const startedAt = new Date();
  const t0 = performance.now();
  const headers = { ...d.headers, 'Content-Length': String(d.body.length) };
  const recorded: Exchange['request'] = {
    method: 'POST',
    url: d.shownUrl,
    path: new URL(d.shownUrl).pathname,
    headers: Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'Content-Length')),
    body: d.shownBody ?? d.body.toString('utf8'),
  };
  return new Promise((resolve) => {
    let done = false;
    let answer: { status: number; headers: Record<string, string>; chunks: Buffer[]; size: number } | undefined;
    const finish = (errorCode?: string, message?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      const durationMs = Math.round(performance.now() - t0);
      const exchange: Exchange = { seq, request: recorded, startedAt: startedAt.toISOString(), durationMs };
      if (answer) {
        const text = Buffer.concat(answer.chunks).toString('utf8');
        const rawBody = text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}… (cut)` : text;
        let body: unknown;
        try {
          body = rawBody === '' ? undefined : JSON.parse(rawBody);
        } catch {
          body = undefined;
        }
        exchange.response = { status: answer.status, headers: answer.headers, ...(body !== undefined ? { body } : {}), rawBody };
        resolve({ exchange, status: answer.status, durationMs });
        return;
      }
      exchange.error = { code: errorCode ?? 'ERROR', message: message ?? 'no answer' };
      resolve({ exchange, errorCode: errorCode ?? 'ERROR', durationMs });
    };
    const send = d.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(d.url, { method: 'POST', headers, agent: false, ...(d.secureContext ? { secureContext: d.secureContext } : {}) });
    const timer = setTimeout(() => finish('PCC_TIMEOUT', `no whole answer within ${d.capMs} ms`), d.capMs);
    req.on('response', (res) => {
      answer = { status: res.statusCode ?? 0, headers: headerRecord(res.headers), chunks: [], size: 0 };
      res.on('data', (c: Buffer) => {
        if (answer!.size < MAX_ANSWER_CHARS * 4) {
          answer!.chunks.push(c);
          answer!.size += c.length;
        }
      });
      res.on('end', () => finish());
      res.on('error', () => finish());
      res.on('close', () => finish());
    });
    req.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? 'ERROR', e.message));
    req.end(d.body);
  });
}
