import { describe, expect, it } from 'vitest';
import { scrubSecrets, scrubText } from './scrub.ts';

describe('scrub', () => {
  it('removes secret fields and bearer values by their shape', () => {
    expect(
      scrubSecrets({
        a: { client_secret: 's3cr3t', access_token: null, list: ['Bearer abc.def-ghi-jkl-mno', 'Bearer [REDACTED]'] },
        raw: '{"webhook_secret_key": "k\\"ey"}',
      }),
    ).toEqual({
      a: { client_secret: '[REDACTED]', access_token: null, list: ['Bearer [REDACTED]', 'Bearer [REDACTED]'] },
      raw: '{"webhook_secret_key": "[REDACTED]"}',
    });
  });

  it('changes nothing in place, and shares what holds nothing to scrub', () => {
    const clean = { client_id: 'abc', list: ['a', { b: 1 }] };
    const given = { clean, dirty: { access_token: 't0k3n', keep: { x: 1 } } };
    const out = scrubSecrets(given);
    expect(given.dirty.access_token).toBe('t0k3n');
    expect(out.dirty).toEqual({ access_token: '[REDACTED]', keep: { x: 1 } });
    expect(out.clean).toBe(clean);
    expect(out.dirty.keep).toBe(given.dirty.keep);
    expect(scrubSecrets(clean)).toBe(clean);
  });

  it('scrubs every secret field in text, and a bearer value, wherever it stands in a longer text', () => {
    const pad = 'x'.repeat(300);
    for (const field of ['client_secret', 'access_token', 'webhook_secret_key', 'refresh_token', 'password'])
      expect(scrubText(`${pad}{"${field}":"v4lue"}${pad}`), field).toBe(`${pad}{"${field}":"[REDACTED]"}${pad}`);
    expect(scrubText(`${pad}authorization: Bearer abcdefghijklmnop0123\n${pad}`)).toBe(`${pad}authorization: Bearer [REDACTED]\n${pad}`);
  });

  it('leaves everything else alone', () => {
    const plain = 'Bearer $PAYCONNECT_TOKEN is set; a Bearer token is given; {"client_id":"abc"}';
    expect(scrubText(plain)).toBe(plain);
  });
});
