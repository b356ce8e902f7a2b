import { describe, expect, it } from 'vitest';
import type { RunContext } from '../runtime/index.ts';
import { workerContext } from './worker-context.ts';

const ctx = (workers?: number) => ({ targetKind: 'sim', ...(workers === undefined ? {} : { workers }) }) as RunContext;

describe('workerContext', () => {
  it('gives N workers N different terminals', () => {
    const indices = [1, 2, 3, 4].map((id) => workerContext(ctx(4), { VITEST_POOL_ID: String(id) }).share.index);
    expect(indices).toEqual([0, 1, 2, 3]);
    expect(workerContext(ctx(4), { VITEST_POOL_ID: '3' }).share.count).toBe(4);
  });

  it('numbers the worker as vitest does, from 1, and wraps past the count', () => {
    expect(workerContext(ctx(2), { VITEST_POOL_ID: '3' })).toMatchObject({ worker: 3, share: { index: 0, count: 2 } });
  });

  it('is worker 1 of 1 outside a pool', () => {
    expect(workerContext(ctx(), {})).toMatchObject({ worker: 1, share: { index: 0, count: 1 } });
    expect(workerContext(ctx(0), { VITEST_POOL_ID: 'x' })).toMatchObject({ worker: 1, share: { index: 0, count: 1 } });
  });
});
