/** The worker's lanes: which terminal a test runs on. */
import { describe, expect, it } from 'vitest';
import { LanePool, type SuiteWorker } from './fixtures.ts';

const lanes = (n: number) => Array.from({ length: n }, (_, lane) => ({ lane }) as SuiteWorker);

describe('LanePool', () => {
  it('gives each test at once a lane of its own, the lowest free one first', async () => {
    const pool = new LanePool(lanes(3));
    const [a, b] = [await pool.lease(), await pool.lease()];
    expect([a.lane, b.lane]).toEqual([0, 1]);
    pool.release(a);
    expect((await pool.lease()).lane).toBe(0);
  });

  it('keeps tests that run one after another on one lane', async () => {
    const pool = new LanePool(lanes(4));
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const l = await pool.lease();
      seen.push(l.lane);
      pool.release(l);
    }
    expect(seen).toEqual([0, 0, 0, 0, 0]);
  });

  it('makes a test wait while every lane is busy, and hands it the first lane given back', async () => {
    const pool = new LanePool(lanes(2));
    const [a, b] = [await pool.lease(), await pool.lease()];
    let got: SuiteWorker | undefined;
    const waiting = pool.lease().then((l) => (got = l));
    await new Promise((r) => setImmediate(r)); // past every pending microtask: a lease that did not wait has resolved by now
    expect(got).toBeUndefined();
    pool.release(b);
    await waiting;
    expect(got?.lane).toBe(1);
    pool.release(a);
    expect((await pool.lease()).lane).toBe(0);
  });
});
