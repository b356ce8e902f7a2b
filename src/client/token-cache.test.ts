import { describe, expect, it, vi } from 'vitest';
import { parseExpiresIn, TokenCache } from './token-cache.ts';

function counter(expires_in = '100') {
  let n = 0;
  return vi.fn(async () => ({ access_token: `t${++n}`, expires_in }));
}

describe('parseExpiresIn', () => {
  it('reads positive decimal strings (and numbers) as seconds, nothing else', () => {
    expect(parseExpiresIn('3600')).toBe(3600);
    expect(parseExpiresIn(' 1.5 ')).toBe(1.5);
    expect(parseExpiresIn(120)).toBe(120);
    for (const bad of ['', '0', '-5', '1e3', '60s', 'soon', null, undefined, {}]) expect(parseExpiresIn(bad)).toBeUndefined();
  });
});

describe('TokenCache', () => {
  it('renews at 80% of a short lifetime and 30 s before a long one', async () => {
    let now = 0;
    const short = new TokenCache(counter('10'), { now: () => now });
    expect(await short.get()).toBe('t1');
    now = 7_999;
    expect(await short.get()).toBe('t1');
    now = 8_000;
    expect(await short.get()).toBe('t2');

    now = 0;
    const long = new TokenCache(counter('600'), { now: () => now });
    await long.get();
    now = 569_999;
    expect(await long.get()).toBe('t1');
    now = 570_000;
    expect(await long.get()).toBe('t2');
  });

  it('fetches once for concurrent callers', async () => {
    const source = counter();
    const cache = new TokenCache(source);
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual(['t1', 't1', 't1']);
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('invalidate(token) drops only that token', async () => {
    const cache = new TokenCache(counter());
    await cache.get();
    cache.invalidate('t1');
    expect(await cache.get()).toBe('t2');
    cache.invalidate('t1'); // stale 401: t2 stays
    expect(cache.peek()).toBe('t2');
    cache.invalidate();
    expect(cache.peek()).toBeUndefined();
  });

  it('does not cache a token fetched before an invalidation or a source switch', async () => {
    let release!: () => void;
    const slow = vi.fn(
      () =>
        new Promise<{ access_token: string; expires_in: string }>((r) => {
          release = () => r({ access_token: 'old', expires_in: '100' });
        }),
    );
    const cache = new TokenCache(slow);
    const pending = cache.get();
    cache.setSource(async () => ({ access_token: 'new', expires_in: '100' }));
    release();
    expect(await pending).toBe('old');
    expect(cache.peek()).toBeUndefined();
    expect(await cache.get()).toBe('new');
  });

  it('fails with PCC_AUTH_FAILED when the source fails or answers without access_token', async () => {
    const failing = new TokenCache(async () => {
      throw new Error('boom');
    });
    await expect(failing.get()).rejects.toMatchObject({ code: 'PCC_AUTH_FAILED', message: expect.stringContaining('boom') });
    const empty = new TokenCache(async () => ({ access_token: '', expires_in: '1' }));
    await expect(empty.get()).rejects.toMatchObject({ code: 'PCC_AUTH_FAILED' });
  });
});
