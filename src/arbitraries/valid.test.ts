import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePairRequest } from '../generated/validators.js';
import { validArbitrary, webUrl } from './valid.ts';

describe('valid arbitraries', () => {
  it('a URI is an http(s) URL that parses, with an authority and a path', () => {
    for (const url of fc.sample(webUrl(), { numRuns: 200, seed: 7 })) {
      const u = new URL(url);
      expect(['http:', 'https:']).toContain(u.protocol);
      expect(u.host).not.toBe('');
    }
  });

  it('every generated pairing body (webhook_url: format uri) is valid under the contract', () => {
    for (const body of fc.sample(validArbitrary('PairRequest'), { numRuns: 100, seed: 11 })) {
      expect(validatePairRequest(body), JSON.stringify(validatePairRequest.errors)).toBe(true);
    }
  });
});
