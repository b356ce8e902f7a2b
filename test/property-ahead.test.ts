/**
 * Property runs sent ahead (suites/properties/property.ts, HoldsOptions.ahead): the runs fast-check
 * asks for are judged in its order with the same counterexample as one at a time, no more than
 * `ahead` are under way at once, and a value not drawn beforehand (shrinking) runs alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ahead } from '../suites/_setup/ahead.ts';
import { type Disturbed, VERDICTS, type Verdict } from '../suites/properties/property.ts';

const arb = fc.integer({ min: 0, max: 1000 });
const fails = (n: number) => n % 7 === 3 && n > 100;

/** fast-check over `arb` with the predicate run through Ahead (ahead 1 is one at a time). */
async function check(ahead: number) {
  let inFlight = 0;
  let most = 0;
  const started: number[] = [];
  const predicate = async (n: number): Promise<Verdict> => {
    started.push(n);
    most = Math.max(most, ++inFlight);
    await new Promise((r) => setTimeout(r, 5));
    inFlight--;
    return fails(n) ? { check: 'x', input: n } : true;
  };
  const runs = new Ahead(ahead > 1 ? fc.sample(arb, { seed: 7, numRuns: 200 }) : [], ahead, predicate, VERDICTS);
  // How many runs were under way when fast-check was told of a failure (it shrinks next).
  const atFailure: number[] = [];
  const details = await fc.check(
    fc.asyncProperty(arb, async (n) => {
      const v = (await runs.take(n, () => true)).result;
      if (v !== true) atFailure.push(inFlight);
      return v === true;
    }),
    { seed: 7, numRuns: 200 },
  );
  await runs.drain();
  return { details, most, started, inFlight, atFailure };
}

describe('property runs sent ahead', () => {
  it('find the same counterexample, shrunk the same way, as one at a time', async () => {
    const one = await check(1);
    const four = await check(4);
    expect(one.details.failed).toBe(true);
    expect(four.details.counterexample).toEqual(one.details.counterexample);
    expect(four.details.counterexamplePath).toBe(one.details.counterexamplePath);
    expect(four.details.numShrinks).toBe(one.details.numShrinks);
  });

  it('keep at most `ahead` under way, and none once drained', async () => {
    const one = await check(1);
    const four = await check(4);
    expect(one.most).toBe(1);
    expect(four.most).toBeGreaterThan(1);
    expect(four.most).toBeLessThanOrEqual(4);
    expect(four.inFlight).toBe(0);
    // A failure waits for the runs started after it: shrinking runs with nothing else under way.
    expect(four.atFailure.length).toBeGreaterThan(0);
    expect(four.atFailure.every((n) => n === 0)).toBe(true);
    // Sent ahead of a failure: at most ahead - 1 runs more than fast-check asked for, before shrinking.
    const firstFail = four.started.findIndex(fails);
    expect(firstFail).toBe(one.started.findIndex(fails));
  });

  it('make a run again alone when its answer may owe itself to the runs under way beside it', async () => {
    // A broken service that hides its defect while busy: a failing body sent beside others is answered 409.
    const service = async (ahead: number) => {
      let inFlight = 0;
      let disturbed = 0;
      const predicate = async (n: number): Promise<Verdict | Disturbed> => {
        inFlight++;
        await new Promise((r) => setTimeout(r, 2));
        const beside = inFlight > 1;
        inFlight--;
        if (!fails(n)) return true;
        if (beside) {
          disturbed++;
          return { disturbed: true };
        }
        return { check: 'x', input: n };
      };
      const runs = new Ahead(ahead > 1 ? fc.sample(arb, { seed: 7, numRuns: 200 }) : [], ahead, predicate, VERDICTS);
      const details = await fc.check(
        fc.asyncProperty(arb, async (n) => {
          const v = (await runs.take(n, () => true)).result;
          return v === true || ('disturbed' in v && v.disturbed === true);
        }),
        { seed: 7, numRuns: 200 },
      );
      await runs.drain();
      return { details, disturbed };
    };
    const one = await service(1);
    const four = await service(4);
    expect(one.disturbed).toBe(0);
    expect(four.disturbed).toBeGreaterThan(0);
    expect(one.details.failed).toBe(true);
    expect(four.details.counterexample).toEqual(one.details.counterexample);
    expect(four.details.counterexamplePath).toBe(one.details.counterexamplePath);
    expect(four.details.numShrinks).toBe(one.details.numShrinks);
  });
});
