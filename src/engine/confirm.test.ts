import { describe, expect, it } from 'vitest';
import type { Finding } from '../core/index.ts';
import type { TestRecord } from '../report/index.ts';
import { confirmFailures, namePattern } from './confirm.ts';

const f = (check: string, message = 'POST /x answered 500', severity: Finding['severity'] = 'failure'): Finding => ({
  check,
  severity,
  clause: 'spec#endpoints',
  message,
});
const rec = (name: string, findings: Finding[], over: Partial<TestRecord> = {}): TestRecord => ({
  name,
  capability: 'payment',
  clause: '',
  file: '/s/payment.suite.ts',
  state: findings.length ? 'failed' : 'passed',
  durationMs: 1,
  findings,
  errors: [],
  parameters: {},
  exchanges: [],
  exchangeCount: 0,
  ...over,
});

describe('confirmFailures', () => {
  it('runs each failed test again N times and tells deterministic from intermittent findings, warnings too', async () => {
    const a = rec('payment > a', [f('request.accepted'), f('response.status-documented', 'answered 500', 'warning')]);
    const b = rec('payment > b', [f('response.schema', 'id 1234abcd5678efgh missing')]);
    const ok = rec('payment > ok', []);
    const tests = [a, b, ok];
    const seen: string[][] = [];
    const report = await confirmFailures(tests, 4, async (due, attempt) => {
      seen.push(due.map((t) => t.name));
      return [
        rec('payment > a', [f('request.accepted'), f('response.status-documented', 'answered 500', 'warning')]),
        // b's defect shows again (other ids) in the first attempt only, once as a repeat of another test's.
        rec('payment > b', attempt === 1 ? [f('response.schema', 'id 9999zzzz0000yyyy missing')] : []),
      ];
    });
    expect(report).toEqual({ tests: 2, runs: 4 });
    expect(seen.every((s) => s.join() === 'payment > a,payment > b')).toBe(true);
    expect(a.findings.map((x) => x.confirmation)).toEqual([
      { attempts: 4, reproduced: 4, kind: 'deterministic', rate: 1 },
      { attempts: 4, reproduced: 4, kind: 'deterministic', rate: 1 },
    ]);
    expect(b.findings[0]!.confirmation).toEqual({ attempts: 4, reproduced: 1, kind: 'intermittent', rate: 0.4 });
    expect(ok.findings).toEqual([]);
  });

  it('does not count an attempt the harness was overloaded through, or one blocked by another test: it runs again, within 2N runs', async () => {
    const a = rec('payment > a', [f('request.accepted')]);
    let runs = 0;
    await confirmFailures([a], 2, async () => {
      runs++;
      const harness = { worker: 1, maxEventLoopDelayMs: 900, cpuSeconds: 1, overloaded: ['a POST timed out in a stall'] };
      return [rec('payment > a', [f('request.accepted')], runs <= 2 ? { harness } : {})];
    });
    expect(runs).toBe(4);
    expect(a.findings[0]!.confirmation).toEqual({ attempts: 2, reproduced: 2, kind: 'deterministic', rate: 1, rechecked: 2 });

    const b = rec('payment > b', [f('request.accepted')]);
    let calls = 0;
    await confirmFailures([b], 2, async () => {
      calls++;
      return [
        rec('payment > b', [], {
          state: 'skipped',
          blockedBy: { check: 'x', severity: 'failure', clause: 'c', message: 'm', test: 'other' },
        }),
      ];
    });
    expect(calls).toBe(4);
    expect(b.findings[0]!.confirmation).toBeUndefined();
  });

  it('leaves known findings, the whole run and toolkit errors alone', async () => {
    const known = rec('payment > k', [{ ...f('request.accepted'), known: { entry: 1, reason: 'r', expires: '2099-01-01' } }]);
    const whole = rec('webhooks > whole', [f('webhook.service-sends')], { wholeRun: true });
    const broken = rec('payment > t', [f('request.accepted')], { toolkitError: { code: 'PCC_INTERNAL', message: 'x' } });
    let called = false;
    expect(await confirmFailures([known, whole, broken], 3, async () => ((called = true), []))).toEqual({ tests: 0, runs: 0 });
    expect(called).toBe(false);
  });
});

describe('namePattern', () => {
  it('matches each scenario name at the end of its full name, escaped', () => {
    const re = new RegExp(namePattern([rec('payment > generate (55) ends EXPIRED', []), rec('payment > a + b', [])]));
    expect(re.test('payment suite generate (55) ends EXPIRED')).toBe(true);
    expect(re.test('a + b')).toBe(true);
    expect(re.test('a  b')).toBe(false);
  });
});
