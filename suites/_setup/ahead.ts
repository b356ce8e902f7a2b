/**
 * fast-check runs started ahead of fast-check's asking: its values for the seed are drawn beforehand
 * (fc.sample draws the same ones as fc.check for that seed), up to `ahead` of them run at once, and
 * each result is handed over when fast-check asks for that value, in its order. A value fast-check
 * asks for that was not drawn beforehand (shrinking) runs alone, when asked. The properties send
 * independent requests this way (properties/property.ts), the model-based parts whole command
 * sequences, each on a fresh terminal of its own (stateful/stateful.ts).
 */

/** What a run of a value drawn beforehand gave, and the value it ran on. */
export interface Taken<T, R> {
  result: R;
  /** The value the run used: the one drawn beforehand (equal to fast-check's), or fast-check's own. */
  ran: T;
  /** Whether `ran` is the value drawn beforehand, not the one fast-check asked with. */
  ahead: boolean;
}

/** How runs go ahead. */
export interface AheadOptions<T, R> {
  /** Whether a result is a pass: a result that is not waits for the runs started after it. */
  passed: (result: R) => boolean;
  /** How two values are compared: equal keys are the same value. */
  key: (value: T) => string;
  /**
   * Whether a result may owe itself to the runs under way beside it (a terminal busy with what
   * another one started): the runs under way are waited for and the value is run again alone, so
   * the result taken is the one it gets one at a time. @default never
   */
  again?: (result: R) => boolean;
}

/** Up to `ahead` runs of the values drawn beforehand, started from the one fast-check asks for now. */
export class Ahead<T, R> {
  readonly #started = new Map<number, Promise<R>>();
  #asked = 0;
  /** The longest one run took from its start, ms: with runs under way at once, the pace is shorter. */
  longestMs = 0;

  constructor(
    private readonly planned: readonly T[],
    private readonly ahead: number,
    private readonly run: (value: T) => Promise<R>,
    private readonly opts: AheadOptions<T, R>,
  ) {}

  /**
   * The result on `value`: the one started ahead when fast-check asks for the value drawn beforehand
   * at this place. A run that fails (or throws) waits for those started after it: fast-check shrinks
   * next, on its own, with nothing of this property under way.
   */
  async take(value: T, mayStartAhead: () => boolean): Promise<Taken<T, R>> {
    const i = this.#asked++;
    if (i >= this.planned.length || this.opts.key(this.planned[i]!) !== this.opts.key(value))
      return { result: await this.timed(value), ran: value, ahead: false };
    this.start(i);
    for (let j = i + 1; j < Math.min(i + this.ahead, this.planned.length) && mayStartAhead(); j++) this.start(j);
    const run = this.#started.get(i)!;
    this.#started.delete(i);
    const result = await run.catch(async (e: unknown) => {
      await this.drain();
      throw e;
    });
    if (this.opts.again?.(result)) {
      await this.drain();
      return { result: await this.timed(value), ran: value, ahead: false };
    }
    if (!this.opts.passed(result)) await this.drain();
    return { result, ran: this.planned[i]!, ahead: true };
  }

  private start(i: number): void {
    if (this.#started.has(i)) return;
    const r = this.timed(this.planned[i]!);
    r.catch(() => undefined);
    this.#started.set(i, r);
  }

  private async timed(value: T): Promise<R> {
    const t0 = Date.now();
    try {
      return await this.run(value);
    } finally {
      this.longestMs = Math.max(this.longestMs, Date.now() - t0);
    }
  }

  /** Waits for the runs started ahead that fast-check did not ask for (a failure or the time box stopped it first). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#started.values()]);
    this.#started.clear();
  }
}
