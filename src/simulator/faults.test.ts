/** The fault table itself: complete, well-formed, and every switch exercised by a test. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS, FaultSet, isFaultId } from './faults.ts';
import { Rng } from './rng.ts';
import { resolveSimulatorOptions } from './options.ts';

describe('FAULTS', () => {
  it('has unique ids, a kind, a rule reference and a description', () => {
    expect(new Set(FAULTS.map((f) => f.id)).size).toBe(FAULTS.length);
    for (const f of FAULTS) {
      expect(['breaks', 'legal']).toContain(f.kind);
      expect(f.rule).toMatch(/^(spec|profile|sandbox)#[a-z-]+$/);
      expect(f.description.length).toBeGreaterThan(5);
    }
    expect(
      FAULTS.filter((f) => f.kind === 'legal')
        .map((f) => f.id)
        .sort(),
    ).toEqual(['cancel.race-success', 'poll.rate-limited', 'slow', 'token.short-lived', 'webhook.duplicate', 'webhook.out-of-order']);
  });

  it('is exercised switch by switch in the fault tests', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((f) => /^faults-.+\.test\.ts$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(4);
    const sources = files.map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')).join('\n');
    const missing = FAULTS.filter((f) => !sources.includes(`'${f.id}'`)).map((f) => f.id);
    expect(missing).toEqual([]);
  });

  it('FaultSet validates ids before replacing the set', () => {
    const s = new FaultSet(['slow']);
    expect(() => s.set(['slow', 'bogus'])).toThrow(/bogus/);
    expect(s.list()).toEqual(['slow']);
    expect(isFaultId('webhook.none')).toBe(true);
    expect(isFaultId('webhook.nope')).toBe(false);
  });
});

describe('a fault rate', () => {
  const draws = (seed: number) => {
    const rng = new Rng(seed);
    return () => rng.u32() / 0x1_0000_0000;
  };
  const fired = (set: FaultSet, n: number) => Array.from({ length: n }, () => set.has('generate.server-error'));

  it('below 1, an active fault acts at about that share of its decisions, the same ones for the same seed', () => {
    const a = fired(new FaultSet(['generate.server-error'], 0.3, draws(7)), 2000);
    const share = a.filter(Boolean).length / a.length;
    expect(share).toBeGreaterThan(0.26);
    expect(share).toBeLessThan(0.34);
    expect(fired(new FaultSet(['generate.server-error'], 0.3, draws(7)), 2000)).toEqual(a);
    expect(fired(new FaultSet(['generate.server-error'], 0.3, draws(8)), 2000)).not.toEqual(a);
  });

  it('at 1 (the default) acts every time, and an inactive fault never draws', () => {
    let calls = 0;
    const counting = () => (calls++, 0.99);
    expect(fired(new FaultSet(['generate.server-error'], 1, counting), 50).every(Boolean)).toBe(true);
    expect(fired(new FaultSet(['slow'], 0.5, counting), 50).some(Boolean)).toBe(false);
    expect(calls).toBe(0);
  });

  it('is a probability above 0 and at most 1, or the simulator does not start', () => {
    for (const bad of [0, -0.1, 1.01, Number.NaN]) {
      expect(() => resolveSimulatorOptions({ faultRate: bad }), String(bad)).toThrow(/fault rate .* is not a probability/);
    }
    expect(resolveSimulatorOptions({ faultRate: 0.25 }).faultRate).toBe(0.25);
    expect(resolveSimulatorOptions({}).faultRate).toBe(1);
  });
});
