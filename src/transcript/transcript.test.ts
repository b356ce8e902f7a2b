import { describe, expect, it } from 'vitest';
import type { Summary } from '../report/index.ts';
import { BODY_CAP, capValue, sha256 } from './format.ts';
import { diffSummaries } from './rejudge.ts';

describe('capValue', () => {
  it('keeps bodies within the cap whole, and one over it as digest, length and head', () => {
    const small = { request: { body: { a: 1 } }, response: { rawBody: 'ok' } };
    expect(capValue(small)).toEqual({ value: small, capped: false });
    const big = 'x'.repeat(BODY_CAP + 5);
    const { value, capped } = capValue({ response: { rawBody: big, body: { s: big } } });
    expect(capped).toBe(true);
    const v = value as {
      response: { rawBody: { $capped: { sha256: string; length: number; head: string } }; body: { $capped: { length: number } } };
    };
    expect(v.response.rawBody.$capped).toEqual({ sha256: sha256(big), length: big.length, head: big.slice(0, BODY_CAP) });
    expect(v.response.body.$capped.length).toBe(JSON.stringify({ s: big }).length);
  });
});

describe('diffSummaries', () => {
  const f = (message: string, severity: 'failure' | 'warning' = 'failure') => ({
    test: 't',
    check: 'c',
    clause: 'spec#x',
    message,
    severity,
    evidence: null,
    repeats: 0,
    repeatedIn: [],
  });
  const summary = (findings: ReturnType<typeof f>[], verdict: Summary['verdict']) => ({ findings, verdict }) as unknown as Summary;
  it('names findings new, gone and with another severity', () => {
    const d = diffSummaries(summary([f('a'), f('b'), f('c', 'warning')], 'fail'), summary([f('a'), f('c'), f('d', 'warning')], 'fail'));
    expect(d.added.map((x) => x.message)).toEqual(['d']);
    expect(d.gone.map((x) => x.message)).toEqual(['b']);
    expect(d.changed.map((x) => [x.message, x.was, x.severity])).toEqual([['c', 'warning', 'failure']]);
  });
  it('finds no difference between equal summaries', () => {
    const d = diffSummaries(summary([f('a'), f('a')], 'fail'), summary([f('a'), f('a')], 'fail'));
    expect([d.added, d.gone, d.changed]).toEqual([[], [], []]);
  });
});
