/**
 * The harness knows when it is the slow one. On a shared 2-core CI runner a worker's event loop can
 * stop for seconds (CPU-heavy input generation or validation, other processes): nothing it waits for is
 * looked at meanwhile, so a deadline, a request time-out or a webhook wait that overlapped such a stall
 * says more about the harness than about the service. This watch keeps each stall with when it
 * happened, so a timing judgement can ask how much of its window the harness lost, and keeps the
 * figures the summary reports (longest event-loop delay, CPU time).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** One stretch of time in which this process ran none of its timers or I/O. */
export interface Stall {
  /** When it ended (epoch ms). */
  endedAt: number;
  /** How long the loop was stopped, ms. */
  ms: number;
}

/** A tick this much late is a stall. */
export const STALL_MS = 250;
const TICK_MS = 50;
/** Stalls kept (the oldest go first): enough for the longest wait of a test. */
const KEEP = 2000;

/** What the summary gets from one worker. */
export interface HarnessLoad {
  /** The longest event-loop delay seen, ms. */
  maxEventLoopDelayMs: number;
  /** CPU time of this process so far, user + system, seconds. */
  cpuSeconds: number;
  /** How many stalls ({@link STALL_MS} or more). */
  stalls: number;
}

export class StallWatch {
  readonly #stalls: Stall[] = [];
  readonly #histogram = monitorEventLoopDelay({ resolution: 20 });
  readonly #timer: NodeJS.Timeout;
  readonly #cpuAtStart = process.cpuUsage();
  #last = Date.now();
  #count = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.#histogram.enable();
    this.#last = now();
    this.#timer = setInterval(() => this.tick(), TICK_MS);
    this.#timer.unref();
  }

  /** Records a stall when the loop came back late (also called by tests with a clock of their own). */
  tick(): void {
    const at = this.now();
    const late = at - this.#last - TICK_MS;
    this.#last = at;
    if (late < STALL_MS) return;
    this.#count++;
    this.#stalls.push({ endedAt: at, ms: late });
    if (this.#stalls.length > KEEP) this.#stalls.shift();
  }

  /** How many ms of `[from, to]` (epoch ms) this process stood still. */
  lostDuring(from: number, to: number = this.now()): number {
    this.tick();
    let lost = 0;
    for (const s of this.#stalls) {
      const start = s.endedAt - s.ms;
      lost += Math.max(0, Math.min(to, s.endedAt) - Math.max(from, start));
    }
    return lost;
  }

  /** The worker's figures for the summary. */
  load(): HarnessLoad {
    const cpu = process.cpuUsage(this.#cpuAtStart);
    return {
      maxEventLoopDelayMs: Math.round(Math.max(this.#histogram.max / 1e6, ...this.#stalls.map((s) => s.ms + TICK_MS), 0)),
      cpuSeconds: Math.round((cpu.user + cpu.system) / 1e4) / 100,
      stalls: this.#count,
    };
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#histogram.disable();
  }
}
