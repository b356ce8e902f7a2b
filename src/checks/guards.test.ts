import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { answered, is2xx, is4xx, isObj, keptAskingToWait, sandboxOnly, waitedOut } from './guards.ts';

const ex = (status: number | undefined, body?: unknown): Exchange =>
  ({
    seq: 1,
    request: { method: 'POST', path: '/v1/x/', headers: {} },
    ...(status === undefined ? { error: { code: 'PCC_TIMEOUT' } } : { response: { status, headers: {}, body } }),
  }) as unknown as Exchange;

describe('check guards', () => {
  it('describe an answer by status, an error by its code, and the detail only when asked', () => {
    expect(answered(ex(409, { detail: 'busy' }))).toBe('POST /v1/x/ answered 409');
    expect(answered(ex(409, { detail: 'busy' }), true)).toBe('POST /v1/x/ answered 409 (busy)');
    expect(answered(ex(undefined))).toBe('POST /v1/x/ answered PCC_TIMEOUT');
  });

  it('tell an answer waited out from one the service kept asking to wait on, and say so', () => {
    const mark = (honoured: boolean, inARow: number, reason?: string) =>
      ({ ...ex(429), retryAfter: { status: 429, waitMs: 1000, honoured, inARow, ...(reason ? { reason } : {}) } }) as Exchange;
    expect(waitedOut(mark(true, 1))).toBe(true);
    expect(waitedOut(mark(false, 4, 'x'))).toBe(false);
    expect(waitedOut(ex(429))).toBe(false);
    expect(keptAskingToWait(mark(true, 1))).toBe('');
    expect(keptAskingToWait(ex(404))).toBe('');
    expect(answered(mark(false, 4, 'still asked to wait after 3 re-sends'))).toBe(
      'POST /v1/x/ answered 429 (it kept answering 429 with Retry-After (4 times in a row), and the ' +
        'client stopped waiting: still asked to wait after 3 re-sends)',
    );
    expect(answered(mark(false, 1, 'a wait of 600000 ms is longer than the 10000 ms the client waits'))).toBe(
      'POST /v1/x/ answered 429 (it answered 429 with Retry-After, and the client stopped waiting: ' +
        'a wait of 600000 ms is longer than the 10000 ms the client waits)',
    );
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
