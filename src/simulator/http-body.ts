/**
 * Bounded request-body reading. Bodies over BODY_LIMIT are answered 413; up to DRAIN_LIMIT the rest
 * is read and discarded so the keep-alive connection stays usable and the client sees the 413
 * instead of a broken pipe; beyond that the connection is closed after the answer.
 */
import type { IncomingMessage } from 'node:http';

/** The largest accepted body: 64 KiB. */
export const BODY_LIMIT = 64 * 1024;
/** The most a too-large body is drained before the connection is given up. */
export const DRAIN_LIMIT = 16 * 1024 * 1024;

/** A body read: the bytes, too large (drained or not), or the client went away. */
export type BodyResult =
  { readonly kind: 'ok'; readonly raw: Buffer } | { readonly kind: 'too-large'; readonly drained: boolean } | { readonly kind: 'aborted' };

const EMPTY: BodyResult = { kind: 'ok', raw: Buffer.alloc(0) };

/** Reads at most BODY_LIMIT bytes of `req`; never rejects. */
export function readBody(req: IncomingMessage): Promise<BodyResult> | BodyResult {
  // No length and no chunked encoding: HTTP/1.1 says there is no body; don't wait for 'end'.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return EMPTY;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) return Promise.resolve({ kind: 'too-large', drained: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
      else chunks.length = 0; // keep nothing of a body that will be refused
      if (size > DRAIN_LIMIT) {
        req.off('data', onData);
        req.pause();
        resolve({ kind: 'too-large', drained: false });
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(size > BODY_LIMIT ? { kind: 'too-large', drained: true } : { kind: 'ok', raw: Buffer.concat(chunks) }));
    req.once('error', () => resolve({ kind: 'aborted' }));
    req.once('close', () => resolve({ kind: 'aborted' })); // no-op when 'end' came first
  });
}
