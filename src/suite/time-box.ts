/**
 * A time box for a scenario that repeats runs (fast-check properties, model-based sequences): it
 * starts another run only while the time left can hold it at the pace measured on the runs so far,
 * and says how many ran, in how long, at what pace. The runs that did not fit are "not checked", named
 * with the service's pace: never a failure, never a finding.
 */
import { type Exchange, durationText, paceText } from '../core/index.ts';

/** What a time box needs of its scenario. */
export interface TimeBoxHost {
  /** ms left of the scenario's budget as it stands now (ScenarioContext.timeLeft). */
  timeLeft(): number;
  /** The scenario's exchanges so far (its scope's): the runs' are the pace named. */
  exchanges(): readonly Exchange[];
  /** Whose budget the time left is (ScenarioContext.budgetCut): the scenario's own, or the run's. @default the scenario's */
  budgetCut?(): 'scenario' | 'run';
}

/**
 * Another run starts only while the time left holds this many at the measured pace: the run itself
 * and as much again for what the scenario does after its runs (releasing, judging, cleaning up).
 */
export const RUNS_IN_RESERVE = 2;

export class TimeBox {
  /** Runs started (and ended). */
  ran = 0;
  /** Runs the box kept from starting. */
  refused = 0;
  #runMs = 0;
  readonly #startedAt: number;
  readonly #firstExchange: number;

  /**
   * @param planned how many runs were asked for (`--runs`, or what the scenario makes of it)
   * @param unit what one run is, in words (`run`, `sequence`)
   */
  constructor(
    private readonly host: TimeBoxHost,
    readonly planned: number,
    readonly unit = 'run',
    private readonly now: () => number = Date.now,
  ) {
    this.#startedAt = now();
    this.#firstExchange = host.exchanges().length;
  }

  /** ms one run took on average so far (0 before the first). */
  get paceMs(): number {
    return this.ran === 0 ? 0 : this.#runMs / this.ran;
  }

  /** Whether the box stopped runs from starting. */
  get cut(): boolean {
    return this.refused > 0;
  }

  /** Whether another run fits: the first always (while any time is left); then while the time left holds {@link RUNS_IN_RESERVE} at the pace so far. */
  mayStart(): boolean {
    const left = this.host.timeLeft();
    const fits = left > 0 && (this.ran === 0 || left >= RUNS_IN_RESERVE * this.paceMs);
    if (!fits) this.refused++;
    return fits;
  }

  /** Runs `run` when another fits (timing it); otherwise returns `skipped` without running it. */
  async run<T, S>(run: () => Promise<T>, skipped: S): Promise<T | S> {
    if (!this.mayStart()) return skipped;
    const t0 = this.now();
    try {
      return await run();
    } finally {
      this.#runMs += this.now() - t0;
      this.ran++;
    }
  }

  /** The exchanges of the runs (made since the box began). */
  private runExchanges(): readonly Exchange[] {
    return this.host.exchanges().slice(this.#firstExchange);
  }

  /** `ran 14 of 45 runs in 60.2 s at 4.3 s a run (pair 3.1 s a request)`. */
  summary(): string {
    const of = this.cut ? ` of ${this.planned}` : '';
    const pace = this.ran > 0 ? ` at ${durationText(this.paceMs)} a ${this.unit} (${paceText(this.runExchanges())})` : '';
    return `ran ${this.ran}${of} ${this.unit}${this.planned === 1 && !this.cut ? '' : 's'} in ${durationText(this.now() - this.#startedAt)}${pace}`;
  }

  /** What the box left unchecked, once it cut the runs short: undefined when every run it was asked for ran. */
  notChecked(name: string): string | undefined {
    if (!this.cut) return undefined;
    const left = Math.max(0, this.planned - this.ran);
    const budget = this.host.budgetCut?.() === 'run' ? "the run's time budget (--max-duration)" : "the scenario's time budget";
    return (
      `${name}: ${left > 0 ? `${left} of ${this.planned} ${this.unit}s` : 'the shrinking of its counterexample'} ` +
      `not run, ${budget} could not hold them at the service's pace (${this.summary()})`
    );
  }
}
