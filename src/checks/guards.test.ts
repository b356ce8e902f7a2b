import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { answered, is2xx, is4xx, isObj, sandboxOnly } from './guards.ts';

const ex = (status: number | undefined, body?: unknown): Exchange =>
  ({ seq: 1, request: { method: 'POST', path: '/v1/x/', headers: {} }, ...(status === undefined ? { error: { code: 'PCC_TIMEOUT' } } : { response: { status, headers: {}, body } }) }) as unknown as Exchange;

describe('check guards', () => {
  it('describe an answer by status, an error by its code, and the detail only when asked', () => {
    expect(answered(ex(409, { detail: 'busy' }))).toBe('POST /v1/x/ answered 409');
    expect(answered(ex(409, { detail: 'busy' }), true)).toBe('POST /v1/x/ answered 409 (busy)');
    expect(answered(ex(undefined))).toBe('POST /v1/x/ answered PCC_TIMEOUT');
  });

  it('class statuses and objects', () => {
    expect([199, 200, 299, 300].map(is2xx)).toEqual([false, true, true, false]);
    expect([399, 400, 499, 500].map(is4xx)).toEqual([false, true, true, false]);
    expect([{}, [], null, 'x'].map(isObj)).toEqual([true, false, false, false]);
  });

  it('skip a sandbox rule under the public profile only', () => {
    const ctx = (name: 'sandbox' | 'public') => ({ profile: resolveProfile(name), strict: false });
    expect(sandboxOnly(ctx('sandbox'))).toBeUndefined();
    expect(sandboxOnly(ctx('public'))).toMatchObject({ kind: 'skip' });
  });
});
