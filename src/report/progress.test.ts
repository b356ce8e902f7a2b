import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveProgress, clock } from './progress.ts';
import { finding, testRecord } from './testing.ts';

afterEach(() => vi.useRealTimers());

/** What stays on screen: without the redrawn running line. */
const screen = (out: string[]) =>
  out
    .filter((s) => !/^\r\x1b\[2K {2}\S /.test(s))
    .join('')
    .replace(/\r\x1b\[2K/g, '');

describe('progress in a terminal', () => {
  it('shows how many tests run and the newest with its time, and a line per finished test naming its capability', () => {
    vi.useFakeTimers();
    let now = 0;
    const out: string[] = [];
    const p = new LiveProgress({ write: (s) => out.push(s), now: () => now, columns: () => 120, tickMs: 100 });
    p.onTestStart({ capability: 'payment', name: 'generate and converge: approve' });
    now = 500;
    p.onTestStart({ capability: 'auth', name: 'token' });
    now = 1500;
    vi.advanceTimersByTime(100);
    expect(out.at(-1)).toMatch(/^\r\x1b\[2K {2}. auth > token {2}1\.0 s \+1 {2}\[0 done, 0:01\]$/);
    p.onTest(testRecord({ capability: 'auth', scenario: 'token', state: 'skipped', skipReason: 'no OTP' }));
    p.onTest(
      testRecord({
        scenario: 'generate and converge: approve',
        state: 'failed',
        durationMs: 1500,
        findings: [finding({ severity: 'warning' }), finding({ check: 'slip.total' })],
      }),
    );
    p.stop();
    expect(screen(out)).toBe(
      '  - auth > token (12 ms)  no OTP\n  ✗ payment > generate and converge: approve (1500 ms)  1 failure: slip.total; 1 warning\n',
    );
  });
});

describe('progress in a log (no TTY)', () => {
  it('prints a line per finished test, no control characters, and a heartbeat after 30 s without one', () => {
    vi.useFakeTimers();
    let now = 0;
    const out: string[] = [];
    const p = new LiveProgress({ write: (s) => out.push(s), live: false, now: () => now });
    p.onTestStart({ capability: 'stateful', name: 'model-based, part 1 of 4' });
    p.onTestStart({ capability: 'payment', name: 'approve' });
    p.onTest(testRecord({ scenario: 'approve', durationMs: 20 }));
    now = 29_000;
    vi.advanceTimersByTime(29_000);
    expect(out).toHaveLength(1);
    now = 31_000;
    vi.advanceTimersByTime(2_000);
    now = 45_000;
    vi.advanceTimersByTime(14_000);
    p.stop();
    expect(out).toEqual(['  ✓ payment > approve (20 ms)\n', '  … 1 done, 1 running (stateful > model-based, part 1 of 4), 0:31\n']);
    expect(out.join('')).not.toMatch(/\x1b|\r/);
  });

  it('with quiet, a line per finished suite file (its capability, part and counts) instead of one per test', () => {
    const out: string[] = [];
    const p = new LiveProgress({ write: (s) => out.push(s), live: false, quiet: true });
    const tests = [testRecord({ scenario: 'a' }), testRecord({ scenario: 'b', state: 'skipped' })];
    for (const t of tests) p.onTest(t);
    p.onSuiteEnd({ capability: 'payment', file: '/x/suites/payment/payment.suite.ts', tests });
    p.onSuiteEnd({
      capability: 'properties',
      file: '/x/suites/properties/request-bodies-2.suite.ts',
      tests: [testRecord({ capability: 'properties', state: 'failed' })],
    });
    p.stop();
    expect(out).toEqual([
      '  ✓ payment: 1 passed, 0 failed, 1 skipped\n',
      '  ✗ properties (request-bodies-2): 0 passed, 1 failed, 0 skipped\n',
    ]);
  });

  it('formats the run clock', () => {
    expect(clock(61_000)).toBe('1:01');
  });
});
