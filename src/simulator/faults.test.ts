/** The fault table itself: complete, well-formed, and every switch exercised by a test. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS, FaultSet, isFaultId } from './faults.ts';

describe('FAULTS', () => {
  it('has unique ids, a kind, a rule reference and a description', () => {
    expect(new Set(FAULTS.map((f) => f.id)).size).toBe(FAULTS.length);
    for (const f of FAULTS) {
      expect(['breaks', 'legal']).toContain(f.kind);
      expect(f.rule).toMatch(/^(spec|profile|sandbox)#[a-z-]+$/);
      expect(f.description.length).toBeGreaterThan(5);
    }
    expect(FAULTS.filter((f) => f.kind === 'legal').map((f) => f.id).sort())
      .toEqual(['cancel.race-success', 'poll.rate-limited', 'slow', 'token.short-lived', 'webhook.duplicate', 'webhook.out-of-order']);
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
