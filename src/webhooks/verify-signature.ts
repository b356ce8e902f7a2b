import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a `Signature` header says about a body: matches, absent (or empty), or anything else. */
export type SignatureVerdict = 'valid' | 'missing' | 'invalid';

/** The only accepted form: 64 lowercase hex digits (public-profile.md, Webhooks). */
const LOWER_HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * The `Signature` header value the sender must send for `rawBody`: lowercase hex HMAC-SHA256 of the
 * exact bytes, keyed with `secret` encoded as UTF-8. Exported for tests and for the simulator's peers.
 */
export function signBody(rawBody: Buffer | string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex');
}

/**
 * Checks a `Signature` header against the exact received bytes. Never throws.
 *
 * The header must be exactly 64 lowercase hex digits: uppercase hex, a prefix such as `sha256=`, or a
 * wrong length is `invalid` (the published scheme says lowercase hex, and a finding is the right
 * outcome for a sender that deviates). An absent or empty header is `missing`. The digests are
 * compared with `timingSafeEqual` on two 32-byte buffers, so the comparison time does not depend on
 * where they differ.
 *
 * @param rawBody the body bytes as received, never a re-serialised object
 * @param header the `Signature` header value, if any
 * @param secret the pairing's `webhook_secret_key`
 */
export function verifySignature(rawBody: Buffer, header: string | undefined, secret: string): SignatureVerdict {
  if (header === undefined || header === '') return 'missing';
  if (!LOWER_HEX_SHA256.test(header)) return 'invalid';
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest();
  const received = Buffer.from(header, 'hex');
  if (received.length !== expected.length) return 'invalid';
  return timingSafeEqual(received, expected) ? 'valid' : 'invalid';
}
