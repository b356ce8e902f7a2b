import { describe, expect, it } from 'vitest';
import { scrubSecrets, scrubText } from './scrub.ts';

describe('scrub', () => {
  it('removes secret fields and bearer values by their shape', () => {
    expect(scrubSecrets({ a: { client_secret: 's3cr3t', access_token: null, list: ['Bearer abc.def-ghi-jkl-mno', 'Bearer [REDACTED]'] }, raw: '{"webhook_secret_key": "k\\"ey"}' })).toEqual({
      a: { client_secret: '[REDACTED]', access_token: null, list: ['Bearer [REDACTED]', 'Bearer [REDACTED]'] },
      raw: '{"webhook_secret_key": "[REDACTED]"}',
    });
  });

  it('leaves everything else alone', () => {
    const plain = 'Bearer $PAYCONNECT_TOKEN is set; a Bearer token is given; {"client_id":"abc"}';
    expect(scrubText(plain)).toBe(plain);
  });
});
