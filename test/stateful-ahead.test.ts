/**
 * Command sequences run ahead (suites/_setup/ahead.ts with the model-based parts' commandsKey and
 * markRan): against a target with its own time, a part runs several sequences at once, each on its
 * own terminal. fast-check must still see the same failing sequence, print the same commands (those
 * that ran) and shrink it the same way as one at a time: it reads what ran off its own value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ahead } from '../suites/_setup/ahead.ts';
import { type Commands, commandsKey, markRan } from '../suites/stateful/commands/index.ts';

/** A toy terminal: a counter; `Add(n)` runs only below 50 (else it is skipped, as a command the model's state refuses). */
interface Model {
  total: number;
}
interface Real {
  total: number;
}

class Add implements fc.AsyncCommand<Model, Real> {
  constructor(readonly n: number) {}
  check(m: Readonly<Model>): boolean {
    return m.total < 50;
  }
  async run(m: Model, r: Real): Promise<void> {
    await new Promise((res) => setTimeout(res, 1));
    m.total += this.n;
    // The "service" breaks past a total of 30: the sequence that gets there fails.
    r.total += this.n;
    if (r.total > 30) throw new Error(`total ${r.total}`);
  }
  toString(): string {
    return `Add(${this.n})`;
  }
}

const arb = () => fc.commands([fc.integer({ min: 1, max: 9 }).map((n) => new Add(n))], { maxCommands: 12, size: 'max' });

interface Outcome {
  error?: unknown;
}

async function check(ahead: number) {
  let inFlight = 0;
  let most = 0;
  const run = async (cmds: Commands): Promise<Outcome> => {
    most = Math.max(most, ++inFlight);
    try {
      await fc.asyncModelRun(() => ({ model: { total: 0 }, real: { total: 0 } }), cmds as Iterable<fc.AsyncCommand<Model, Real>>);
      return {};
    } catch (error) {
      return { error };
    } finally {
      inFlight--;
    }
  };
  const runs = new Ahead(ahead > 1 ? fc.sample(arb(), { seed: 3, numRuns: 100 }) : [], ahead, run, {
    passed: (o: Outcome) => o.error === undefined,
    key: commandsKey,
  });
  let fromAhead = 0;
  const details = await fc.check(
    fc.asyncProperty(arb(), async (cmds) => {
      const taken = await runs.take(cmds, () => true);
      if (taken.ahead) {
        markRan(taken.ran, cmds);
        fromAhead++;
      }
      if (taken.result.error !== undefined) throw taken.result.error;
    }),
    { seed: 3, numRuns: 100 },
  );
  await runs.drain();
  return { details, most, fromAhead };
}

describe('command sequences run ahead', () => {
  it('find, print and shrink the same counterexample as one at a time', async () => {
    const one = await check(1);
    const three = await check(3);
    expect(one.details.failed).toBe(true);
    expect(one.fromAhead).toBe(0);
    expect(three.fromAhead).toBeGreaterThan(0);
    const printed = String(three.details.counterexample?.[0]);
    expect(printed).toBe(String(one.details.counterexample?.[0]));
    // What ran of the shrunk sequence (a total past 30), with fast-check's replay path.
    expect(printed).toMatch(/^Add\(\d\)(,Add\(\d\)){3,} \/\*replayPath="[^"]+"\*\/$/);
    expect(three.details.counterexamplePath).toBe(one.details.counterexamplePath);
    expect(three.details.numShrinks).toBe(one.details.numShrinks);
    expect(three.details.numShrinks).toBeGreaterThan(0);
    expect(three.most).toBeGreaterThan(1);
    expect(three.most).toBeLessThanOrEqual(3);
  });

  it('without marking what ran ahead, fast-check would print and shrink nothing', async () => {
    // The reason for markRan: fast-check's own value ran nothing when the sequence ran ahead.
    const planned = fc.sample(arb(), { seed: 3, numRuns: 1 })[0]!;
    const again = fc.sample(arb(), { seed: 3, numRuns: 1 })[0]!;
    await fc.asyncModelRun(() => ({ model: { total: 0 }, real: { total: -1000 } }), planned);
    expect(commandsKey(again)).toBe(commandsKey(planned));
    expect(String(again)).not.toContain('Add(');
    markRan(planned, again);
    expect(String(again)).toBe(String(planned));
    expect(String(again)).toContain('Add(');
  });
});
