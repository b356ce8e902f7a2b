import type { IncomingMessage } from 'node:http';

/** How reading a request body ended. */
export type BodyReadResult = { kind: 'complete'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Reads a request body as raw bytes, stopping as soon as it exceeds `maxBytes` (a declared
 * `Content-Length` over the limit stops it before any byte is read). Never rejects: a connection
 * that dies mid-body resolves `aborted`.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyReadResult> {
  return new Promise((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    function settle(result: BodyReadResult): void {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    }
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        chunks.length = 0;
        return settle({ kind: 'too-large' });
      }
      chunks.push(chunk);
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.pause();
      return settle({ kind: 'too-large' });
    }
    req.on('data', onData);
    req.on('end', () => settle({ kind: 'complete', bytes: Buffer.concat(chunks, size) }));
    // 'error' (ECONNRESET "aborted") and 'close' without 'end' both mean the sender went away.
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}
