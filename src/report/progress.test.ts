import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveProgress, clock } from './progress.ts';
import { finding, testRecord } from './testing.ts';

afterEach(() => vi.useRealTimers());

describe('live progress', () => {
  it('shows the suite, the running test with its elapsed time, and a line per finished test', () => {
    vi.useFakeTimers();
    let now = 0;
    const out: string[] = [];
    const p = new LiveProgress({ write: (s) => out.push(s), now: () => now, columns: () => 120, tickMs: 100 });
    p.onSuiteStart({ capability: 'payment' });
    p.onTestStart({ capability: 'payment', name: 'generate and converge: approve' });
    now = 1500;
    vi.advanceTimersByTime(100);
    expect(out.at(-1)).toMatch(/^\r\x1b\[2K {2}. payment > generate and converge: approve {2}1\.5 s {2}\[0 done, 0:01\]$/);
    p.onTest(testRecord({ scenario: 'generate and converge: approve', durationMs: 1500, findings: [finding({ severity: 'warning' })] }));
    p.onTestStart({ capability: 'auth', name: 'token' });
    p.onTest(testRecord({ capability: 'auth', scenario: 'token', state: 'skipped', skipReason: 'no OTP' }));
    p.stop();
    // Without the redrawn running line: what stays on screen.
    const text = out.filter((s) => !/^\r\x1b\[2K {2}\S /.test(s)).join('').replace(/\r\x1b\[2K/g, '');
    expect(text).toBe('payment\n  ✓ generate and converge: approve (1500 ms)  1 warning\nauth\n  - token (12 ms)  no OTP\n');
  });

  it('formats the run clock', () => {
    expect(clock(61_000)).toBe('1:01');
  });
});
