/**
 * A virtual terminal's clock: real time, plus what was skipped ahead on it. Its timers (terminal
 * steps, deadlines) run in real time as before; `skip` jumps the clock to its next timers and fires
 * them at once, in the order real time would have, until a stop condition holds. The harness asks
 * for that through the control surface (`POST /_sim/clock`) when it would otherwise only sit and
 * wait for this terminal: a wait for a 54's deadline then costs a request, not 1.5 s. Only this
 * terminal's clock moves: the other pairings' terminals and timestamps keep real time.
 */

/** A timer of the clock: when it is due (the clock's time) and what it does. */
export interface ClockTimer {
  readonly due: number;
  readonly fn: () => void;
  handle: NodeJS.Timeout | null;
}

/** What one skip did: how far the clock went, how many timers it fired. */
export interface Skipped {
  readonly skippedMs: number;
  readonly fired: number;
}

export class TerminalClock {
  #offset = 0;
  readonly #timers = new Set<ClockTimer>();

  constructor(private readonly base: () => number) {}

  /** The clock's time: the base clock's plus every skip so far. */
  now(): number {
    return this.base() + this.#offset;
  }

  /** How far the clock has been skipped ahead in all, ms. */
  get skippedMs(): number {
    return this.#offset;
  }

  /** Timers not fired yet. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Runs `fn` after `ms` of this clock. */
  set(fn: () => void, ms: number): ClockTimer {
    const t: ClockTimer = { due: this.now() + ms, fn, handle: null };
    this.#timers.add(t);
    this.#arm(t);
    return t;
  }

  /** Cancels a timer (nothing for null or one already fired). */
  clear(t: ClockTimer | null): void {
    if (!t) return;
    if (t.handle) clearTimeout(t.handle);
    t.handle = null;
    this.#timers.delete(t);
  }

  /** Cancels every timer. */
  clearAll(): void {
    for (const t of [...this.#timers]) this.clear(t);
  }

  /**
   * Skips ahead: fires the timers due within `maxMs`, earliest first (timers of equal due in the
   * order they were set, as real time does), each at its due time, stopping as soon as `done()` holds
   * (checked before each). Timers set by a fired one count when they fall within `maxMs`. Stopped by
   * `done`, the clock stays at the last timer fired; otherwise it ends `maxMs` ahead. The timers left
   * fire at their due times, now that much sooner in real time.
   */
  skip(maxMs: number, done: () => boolean = () => false): Skipped {
    const from = this.#offset;
    const until = this.now() + maxMs;
    let fired = 0;
    let stopped = false;
    for (;;) {
      if (done()) {
        stopped = true;
        break;
      }
      let next: ClockTimer | undefined;
      for (const t of this.#timers) if (t.due <= until && (next === undefined || t.due < next.due)) next = t;
      if (next === undefined) break;
      this.#offset = Math.max(this.#offset, next.due - this.base());
      this.clear(next);
      fired++;
      next.fn();
    }
    if (!stopped) this.#offset = Math.max(this.#offset, until - this.base());
    for (const t of this.#timers) this.#arm(t);
    return { skippedMs: this.#offset - from, fired };
  }

  #arm(t: ClockTimer): void {
    if (t.handle) clearTimeout(t.handle);
    t.handle = setTimeout(
      () => {
        t.handle = null;
        this.#timers.delete(t);
        t.fn();
      },
      Math.max(0, t.due - this.now()),
    );
  }
}
