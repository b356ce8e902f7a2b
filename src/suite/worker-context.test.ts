import { describe, expect, it } from 'vitest';
import type { RunContext } from '../runtime/index.ts';
import { workerContext } from './worker-context.ts';

const ctx = (workers?: number, terminals?: number) =>
  ({ targetKind: 'sim', ...(workers === undefined ? {} : { workers }), ...(terminals === undefined ? {} : { terminals }) }) as RunContext;
const indices = (c: RunContext, workers: number) =>
  Array.from({ length: workers }, (_, i) => workerContext(c, { VITEST_POOL_ID: String(i + 1) }).shares.map((s) => s.index));

describe('workerContext', () => {
  it('gives N workers N different terminals', () => {
    expect(indices(ctx(4), 4)).toEqual([[0], [1], [2], [3]]);
    expect(workerContext(ctx(4), { VITEST_POOL_ID: '3' }).share.count).toBe(4);
  });

  it('deals more terminals than workers out as lanes: every terminal once, the first workers one more', () => {
    expect(indices(ctx(2, 8), 2)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    expect(indices(ctx(2, 5), 2)).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    expect(indices(ctx(3, 4), 3)).toEqual([[0, 1], [2], [3]]);
    for (const s of workerContext(ctx(2, 5), { VITEST_POOL_ID: '2' }).shares) expect(s.count).toBe(5);
  });

  it('never gives a worker no terminal: fewer terminals than workers count as one each', () => {
    expect(indices(ctx(3, 1), 3)).toEqual([[0], [1], [2]]);
  });

  it('numbers the worker as vitest does, from 1, and wraps past the count', () => {
    expect(workerContext(ctx(2), { VITEST_POOL_ID: '3' })).toMatchObject({ worker: 3, share: { index: 0, count: 2 } });
    expect(workerContext(ctx(2, 4), { VITEST_POOL_ID: '4' }).shares.map((s) => s.index)).toEqual([2, 3]);
  });

  it('is worker 1 of 1 outside a pool', () => {
    expect(workerContext(ctx(), {})).toMatchObject({ worker: 1, share: { index: 0, count: 1 }, shares: [{ index: 0, count: 1 }] });
    expect(workerContext(ctx(0), { VITEST_POOL_ID: 'x' })).toMatchObject({ worker: 1, share: { index: 0, count: 1 } });
  });
});
