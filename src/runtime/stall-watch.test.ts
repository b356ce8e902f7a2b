import { afterEach, describe, expect, it } from 'vitest';
import { STALL_MS, StallWatch } from './stall-watch.ts';

const watches: StallWatch[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.stop();
});

describe('StallWatch', () => {
  it('keeps each stall with when it happened, and tells how much of a window was lost', () => {
    let now = 10_000;
    const w = new StallWatch(() => now);
    watches.push(w);
    now += 50;
    w.tick(); // on time
    now += 50 + 1000;
    w.tick(); // the loop stood still 1000 ms, ending at 11_100
    expect(w.lostDuring(9_000, 20_000)).toBe(1000);
    expect(w.lostDuring(10_600, 20_000)).toBe(500); // only the part inside the window
    expect(w.lostDuring(11_100, 20_000)).toBe(0);
    expect(w.load().stalls).toBe(1);
    expect(w.load().maxEventLoopDelayMs).toBeGreaterThanOrEqual(1000);
  });

  it(`does not count a tick late by less than ${STALL_MS} ms`, () => {
    let now = 0;
    const w = new StallWatch(() => now);
    watches.push(w);
    now += 50 + STALL_MS - 1;
    w.tick();
    expect(w.lostDuring(0, 10_000)).toBe(0);
  });

  it('sees a real stall of this process (a busy loop), and its CPU time', () => {
    const w = new StallWatch();
    watches.push(w);
    const from = Date.now();
    const cpu = process.cpuUsage();
    // At least 600 ms and 0.4 CPU-s of it: on a loaded runner the loop gets less than half a core.
    const spent = () => {
      const d = process.cpuUsage(cpu);
      return (d.user + d.system) / 1e6;
    };
    while (Date.now() < from + 600 || spent() < 0.4) {
      /* the event loop stands still */
    }
    expect(w.lostDuring(from)).toBeGreaterThanOrEqual(400);
    expect(w.load().cpuSeconds).toBeGreaterThan(0.3);
  });
});
