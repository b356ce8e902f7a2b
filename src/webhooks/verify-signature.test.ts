import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from './verify-signature.ts';

const secret = 'whsec-ключ-🔑';
// Keys out of order, odd whitespace and non-ASCII: any re-serialisation changes these bytes.
const raw = Buffer.from('{ "z": 1,\n  "a": {"y": "čšž ✓ 🚀", "b": [1,  2]}, "event":"transaction.success" }\n', 'utf8');

describe('verifySignature', () => {
  it('accepts the lowercase hex HMAC-SHA256 of the exact bytes, keyed with the UTF-8 secret', () => {
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest('hex');
    expect(signBody(raw, secret)).toBe(expected);
    expect(verifySignature(raw, expected, secret)).toBe('valid');
  });

  it('rejects a signature computed over a re-serialised body', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))), 'utf8');
    expect(reserialised.equals(raw)).toBe(false);
    expect(verifySignature(raw, signBody(reserialised, secret), secret)).toBe('invalid');
  });

  it('rejects a wrong key, a changed byte, uppercase hex, wrong lengths and non-hex', () => {
    const good = signBody(raw, secret);
    expect(verifySignature(raw, signBody(raw, 'other'), secret)).toBe('invalid');
    const tampered = Buffer.from(raw);
    tampered[3] = tampered[3]! ^ 1;
    expect(verifySignature(tampered, good, secret)).toBe('invalid');
    expect(verifySignature(raw, good.toUpperCase(), secret)).toBe('invalid');
    expect(verifySignature(raw, good.slice(0, 63), secret)).toBe('invalid');
    expect(verifySignature(raw, good.slice(0, 62), secret)).toBe('invalid');
    expect(verifySignature(raw, `${good}00`, secret)).toBe('invalid');
    expect(verifySignature(raw, `sha256=${good}`, secret)).toBe('invalid');
    expect(verifySignature(raw, 'zz'.repeat(32), secret)).toBe('invalid');
    expect(verifySignature(raw, ` ${good}`, secret)).toBe('invalid');
    expect(verifySignature(raw, '\u00e9'.repeat(64), secret)).toBe('invalid');
  });

  it('reports an absent or empty header as missing', () => {
    expect(verifySignature(raw, undefined, secret)).toBe('missing');
    expect(verifySignature(raw, '', secret)).toBe('missing');
  });

  it('signs an empty body too', () => {
    expect(verifySignature(Buffer.alloc(0), signBody(Buffer.alloc(0), secret), secret)).toBe('valid');
  });
});
