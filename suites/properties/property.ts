/**
 * fast-check properties as conformance checks: each run's verdict is a registered check evaluated on
 * what the run observed, and a failing property becomes one finding of that check whose evidence
 * carries the seed, the replay path and the shrunk counterexample. Nothing here throws an expect.
 */
import fc from 'fast-check';
import { getCheck } from '../../src/index.ts';
import { RUNS_IN_RESERVE, type ScenarioContext, TimeBox } from '../../src/suite.ts';
import { Ahead } from '../_setup/ahead.ts';

/** A run that broke the property: the check that failed and its input. */
export interface Counter {
  check: string;
  input: unknown;
  evidence?: Record<string, unknown>;
}

/** A run's verdict: true when it holds. */
export type Verdict = true | Counter;

/**
 * A verdict that may owe itself to the runs sent ahead beside it (see HoldsOptions.ahead): taken only
 * from a run made alone; a run sent ahead that gives one is made again, alone.
 */
export interface Disturbed {
  disturbed: Verdict;
}

const verdictOf = (v: Verdict | Disturbed): Verdict => (v !== true && 'disturbed' in v ? v.disturbed : v);

/** The verdict of registered check `id` on `input` (passed or skipped: holds). */
export function verdict(t: ScenarioContext, id: string, input: unknown, evidence?: Record<string, unknown>): Verdict {
  const outcome = getCheck<unknown>(id).run(input, { profile: t.harness.profile, strict: t.harness.ctx.strict });
  return outcome.kind === 'fail' ? { check: id, input, evidence } : true;
}

/** The seed fast-check is given: the run's seed as a 32-bit integer. */
export function fcSeed(t: ScenarioContext): number {
  return t.harness.ctx.seed | 0;
}

/** How a property's runs may be sent. */
export interface HoldsOptions {
  /**
   * Runs are sent up to `ahead` at a time: run i+1's request is under way while run i is judged.
   * fast-check's values for the seed are drawn beforehand (fc.sample draws the same ones), so each run
   * is still judged in fast-check's order, with the same counterexample; a value fast-check asks for
   * that was not drawn beforehand (shrinking) runs alone. A run whose answer may depend on the others
   * under way says so ({@link Disturbed}) and is made again alone. @default 1 (one at a time)
   */
  ahead?: number;
}

/** Verdicts as runs sent ahead see them: a pass is `true`; values are compared as fast-check prints them. */
export const VERDICTS = {
  passed: (v: Verdict | Disturbed) => v === true,
  key: (v: unknown) => fc.stringify(v),
  again: (v: Verdict | Disturbed) => v !== true && 'disturbed' in v,
};

/**
 * Checks `predicate` on `numRuns` values of `arb` with the run's seed, time-boxed: a run starts only
 * while the scenario's budget can hold it at the pace of the runs so far (the service's answers set
 * it); the runs that do not fit are not checked, named with that pace, never failed. How many ran is
 * the parameter `<name>: runs`. On failure (after shrinking, as far as the time allows) the failing
 * check of the last failing run, which is the shrunk counterexample's, is recorded with the seed and
 * counterexample. A toolkit error inside a run stops the property and is rethrown.
 */
export async function holds<T>(
  t: ScenarioContext,
  name: string,
  arb: fc.Arbitrary<T>,
  numRuns: number,
  predicate: (value: T) => Promise<Verdict | Disturbed>,
  opts: HoldsOptions = {},
): Promise<void> {
  const seed = fcSeed(t);
  const ahead = Math.max(1, opts.ahead ?? 1);
  const runs = new Ahead(ahead > 1 ? fc.sample(arb, { seed, numRuns }) : [], ahead, predicate, VERDICTS);
  // With runs under way at once, the box's pace (time per run) is shorter than one run takes: the time
  // it sees is what is left once the longest run so far would end, so a run it lets start (or one
  // started ahead, on the same terms) still ends inside the budget.
  const timeLeft = () => t.timeLeft() - (ahead > 1 ? runs.longestMs : 0);
  const box = new TimeBox({ timeLeft, exchanges: () => t.scope.exchanges, budgetCut: () => t.budgetCut() }, numRuns);
  const mayStartAhead = () => timeLeft() >= RUNS_IN_RESERVE * box.paceMs;
  let crash: unknown;
  let last: Counter | undefined;
  const details = await fc.check(
    fc.asyncProperty(arb, async (value) => {
      if (crash !== undefined) return true;
      // A run the time left cannot hold is not started: it holds, unchecked (the box counts it).
      return box.run(async () => {
        try {
          const v = verdictOf((await runs.take(value, mayStartAhead)).result);
          if (v === true) return true;
          last = v;
          return false;
        } catch (e) {
          crash = e;
          return true;
        }
      }, true);
    }),
    { seed, numRuns },
  );
  await runs.drain();
  if (crash !== undefined) throw crash;
  t.param(`${name}: runs`, box.summary());
  const unchecked = details.failed ? undefined : box.notChecked(name);
  if (unchecked) t.scope.notChecked.add(unchecked);
  if (!details.failed) return;
  if (!last)
    throw new Error(
      `fast-check property ${name} failed without a counterexample (seed ${seed}): ${String(details.errorInstance ?? 'too many values filtered out?')}`,
    );
  const counterexample = details.counterexample?.[0];
  t.scope.checkRecorded(last.check, last.input, {
    ...last.evidence,
    property: {
      name,
      seed,
      runSeed: t.harness.ctx.seed,
      path: details.counterexamplePath,
      numRuns: details.numRuns,
      numShrinks: details.numShrinks,
      counterexample,
      replay: `--seed ${t.harness.ctx.seed} (fast-check seed ${seed}, path "${details.counterexamplePath ?? ''}")`,
      ...(box.cut ? { shrinking: `cut short by the scenario's time budget (${box.summary()})` } : {}),
    },
  });
}
