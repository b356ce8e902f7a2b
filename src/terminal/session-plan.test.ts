/**
 * Unit tests of the manual session's plan: the card each outcome needs, the operator's sentences, the
 * file order (fewest card changes, checked against every permutation), the estimate, determinism.
 */
import { describe, expect, it } from 'vitest';
import type { Outcome } from './driver.ts';
import { type Card, type PlanStep, cardFor, operatorInstruction, planSession } from './session-plan.ts';

const OUTCOMES: Outcome[] = ['approve', 'decline', 'fail', 'expire', 'wait-in-progress', 'offline', 'refuse-cancel', 'tip'];

/** Steps of one file, named `<file>:<n>`. */
function file(name: string, ...outcomes: Outcome[]): PlanStep[] {
  return outcomes.map((outcome, i) => ({ test: `${name}:${i}`, file: name, outcome }));
}

/** Card changes of steps run as given ('no card' transparent): the oracle, written apart from the module. */
function changesOf(steps: readonly PlanStep[]): number {
  const cards = steps.map((s) => cardFor(s.outcome)).filter((c) => c !== 'no card');
  return cards.filter((c, i) => i > 0 && c !== cards[i - 1]).length;
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** A small deterministic generator (mulberry32), so the exhaustive comparison is repeatable. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('cardFor and operatorInstruction', () => {
  it('maps every outcome to the physical card it needs', () => {
    const expected: Record<Outcome, Card> = {
      approve: 'approve card',
      tip: 'approve card',
      'refuse-cancel': 'approve card',
      fail: 'approve card',
      'wait-in-progress': 'approve card',
      decline: 'decline card',
      expire: 'no card',
      offline: 'no card',
    };
    expect(Object.fromEntries(OUTCOMES.map((o) => [o, cardFor(o)]))).toEqual(expected);
  });

  it('says each outcome in one short imperative sentence, in the words the brief fixes', () => {
    for (const o of OUTCOMES) {
      const s = operatorInstruction(o);
      expect(s, o).toMatch(/^[A-Z].*\.$/);
      expect(s, o).not.toMatch(/\.\s/); // one sentence
      expect(s.length, o).toBeLessThanOrEqual(96);
    }
    expect(operatorInstruction('decline')).toBe('Present the decline test card.');
    expect(operatorInstruction('approve')).toBe('Present the approve test card.');
    expect(operatorInstruction('expire')).toBe('Do nothing until the terminal gives up (it times out on its own).');
    expect(operatorInstruction('tip')).toBe('Add a tip of 1.00 on the terminal, then present the approve test card.');
    expect(operatorInstruction('fail')).toBe('Insert the approve test card, then pull it out before the terminal finishes.');
    expect(new Set(OUTCOMES.map(operatorInstruction)).size).toBe(OUTCOMES.length);
  });
});

describe('planSession', () => {
  it('orders files so a session the naive order gives 3 card changes needs 1', () => {
    const steps = [...file('A', 'approve', 'decline'), ...file('B', 'tip'), ...file('C', 'decline')];
    expect(changesOf(steps)).toBe(3);
    const plan = planSession(steps, { expireMs: 60_000 });
    expect(plan.files).toEqual(['B', 'A', 'C']);
    expect(plan.steps.map((s) => s.test)).toEqual(['B:0', 'A:0', 'A:1', 'C:0']);
    expect(plan.cardChanges).toBe(1);
    expect(changesOf(plan.steps)).toBe(1);
  });

  it("keeps steps in their file's order, and a 'no card' step neither breaks nor starts a card run", () => {
    const steps = [...file('A', 'approve'), ...file('B', 'expire'), ...file('C', 'decline', 'offline', 'approve'), ...file('D', 'approve')];
    const plan = planSession(steps, { expireMs: 1 });
    expect(plan.steps.filter((s) => s.file === 'C').map((s) => s.test)).toEqual(['C:0', 'C:1', 'C:2']);
    // C goes from decline to approve, so it runs before the approve files; B (no card) may come first.
    expect(plan.files).toEqual(['B', 'C', 'A', 'D']);
    expect(plan.cardChanges).toBe(1);
    // approve, no card, approve: no change, and the given order stands
    const around = planSession([...file('A', 'approve'), ...file('E', 'expire', 'offline'), ...file('F', 'fail')], { expireMs: 1 });
    expect(around.files).toEqual(['A', 'E', 'F']);
    expect(around.cardChanges).toBe(0);
    expect(planSession(file('X', 'approve', 'expire', 'decline', 'offline', 'approve'), { expireMs: 1 }).cardChanges).toBe(2);
  });

  it('finds the fewest card changes of all file orders (random sessions against every permutation)', () => {
    const next = rng(16);
    for (let round = 0; round < 60; round++) {
      const files = Array.from({ length: 1 + Math.floor(next() * 6) }, (_, f) =>
        file(`f${f}`, ...Array.from({ length: 1 + Math.floor(next() * 3) }, () => OUTCOMES[Math.floor(next() * OUTCOMES.length)]!)),
      );
      const best = Math.min(...permutations(files).map((p) => changesOf(p.flat())));
      const plan = planSession(files.flat(), { expireMs: 1 });
      expect(plan.cardChanges, JSON.stringify(files)).toBe(best);
      expect(changesOf(plan.steps)).toBe(best);
      expect([...plan.steps].sort((a, b) => a.test.localeCompare(b.test))).toEqual(
        [...files.flat()].sort((a, b) => a.test.localeCompare(b.test)),
      );
    }
  });

  it('estimates stepMs per card step, expireMs per no-card step and 10 s per card change (default step 30 s)', () => {
    const steps = [...file('A', 'approve', 'expire'), ...file('B', 'decline', 'offline', 'decline')];
    const plan = planSession(steps, { stepMs: 20_000, expireMs: 70_000 });
    expect(plan.cardChanges).toBe(1);
    expect(plan.estimateMs).toBe(3 * 20_000 + 2 * 70_000 + 10_000);
    expect(planSession(steps, { expireMs: 70_000 }).estimateMs).toBe(3 * 30_000 + 2 * 70_000 + 10_000);
    expect(planSession([], { expireMs: 70_000 })).toEqual({ steps: [], files: [], cardChanges: 0, estimateMs: 0 });
  });

  it('is deterministic: equal input, equal plan; among equally good orders the given file order stands', () => {
    const steps = [
      ...file('A', 'decline'),
      ...file('B', 'approve'),
      ...file('C', 'decline'),
      ...file('D', 'approve'),
      ...file('E', 'expire'),
    ];
    const first = planSession(steps, { expireMs: 5 });
    expect(planSession(structuredClone(steps), { expireMs: 5 })).toEqual(first);
    expect(first.files).toEqual(['A', 'C', 'B', 'D', 'E']);
    expect(planSession([...file('B', 'approve'), ...file('A', 'approve')], { expireMs: 5 }).files).toEqual(['B', 'A']);
  });

  it('orders more files than the exact search takes greedily, keeping every step', () => {
    const steps = Array.from({ length: 20 }, (_, i) => file(`f${String(i).padStart(2, '0')}`, i % 2 === 0 ? 'approve' : 'decline')).flat();
    const plan = planSession(steps, { expireMs: 5 });
    expect(plan.steps).toHaveLength(20);
    expect(plan.cardChanges).toBe(1);
    expect(plan.files.slice(0, 10).every((f) => Number(f.slice(1)) % 2 === 0)).toBe(true);
  });
});
