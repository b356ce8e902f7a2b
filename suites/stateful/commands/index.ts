/**
 * The command set and how fast-check draws it. Amounts are drawn across the outcome table
 * (`amount % 100`: 00, 51, 52, 53, 54, 55, 56, 57; the approving 00 weighted up so that sequences
 * reach the states that need a SUCCESS), targets as "the n-th most recent" (shrinks toward the
 * latest) or, now and then, an unknown id.
 */
import fc from 'fast-check';
import type { TerminalModel } from '../model.ts';
import type { Real } from '../real.ts';
import { CancelCommand } from './cancel.ts';
import { type ModelCommand, UNKNOWN } from './command.ts';
import { LinkedRefundCommand } from './linked-refund.ts';
import { CompleteCommand, IncrementCommand } from './preauth-ops.ts';
import { RevertCommand } from './revert.ts';
import { SlipCommand } from './slip.ts';
import { StartCommand } from './start.ts';
import { WaitCommand } from './wait.ts';

export type { ModelCommand } from './command.ts';

/** Last two digits, across the sandbox outcome table; shrinks toward 00 (approve). */
const suffix = fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 51, 52, 53, 54, 55, 56, 57);
const finishing = fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 51, 52, 53, 56, 57);
const waiting = fc.constantFrom(54, 55);
const amountOf = (suffixes: fc.Arbitrary<number>) => fc.tuple(fc.integer({ min: 1, max: 50 }), suffixes).map(([k, s]) => k * 100 + s);
const amount = amountOf(suffix);
const back = fc.oneof({ weight: 9, arbitrary: fc.nat({ max: 3 }) }, { weight: 1, arbitrary: fc.constant(UNKNOWN) });
const among = fc.constantFrom('authorized', 'authorized', 'authorized', 'authorized', 'any') as fc.Arbitrary<'authorized' | 'any'>;
const revertAmong = fc.constantFrom('success', 'success', 'success', 'any') as fc.Arbitrary<'success' | 'any'>;
const completeSize = fc.constantFrom('exact', 'exact', 'exact', 'below', 'above') as fc.Arbitrary<'exact' | 'below' | 'above'>;
const refundSize = fc.constantFrom('part', 'rest', 'over') as fc.Arbitrary<'part' | 'rest' | 'over'>;

/** Whether a start waits for its transaction at once; shrinks toward a separate Wait. */
const settle = fc.constantFrom(false, true, true);

/**
 * A start: an amount that finishes on its own (00, 51, 52, 53, 56, 57), left pending or waited for
 * at once; or one that waits for a cancel or the deadline (54, 55), always left pending so that
 * what follows meets a busy terminal (a wait for it lasts until the sandbox's deadline).
 */
function start(name: 'Generate' | 'Preauth' | 'IndependentRefund'): fc.Arbitrary<ModelCommand> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(amountOf(finishing), settle).map(([a, s]) => new StartCommand(name, a, s) as ModelCommand) },
    { weight: 1, arbitrary: amountOf(waiting).map((a) => new StartCommand(name, a) as ModelCommand) },
  );
}

const w = (weight: number, arbitrary: fc.Arbitrary<ModelCommand>) => ({ weight, arbitrary });

/**
 * One command. The weights favour the preauthorization life cycle (its rules need the longest
 * chains: preauth, wait, complete, increment) without starving the others.
 */
export const commandArb: fc.Arbitrary<ModelCommand> = fc.oneof(
  w(1, start('Generate')),
  w(6, start('Preauth')),
  w(1, start('IndependentRefund')),
  w(5, fc.constant(new WaitCommand())),
  w(
    2,
    back.map((b) => new CancelCommand(b)),
  ),
  w(
    1,
    back.map((b) => new SlipCommand(b)),
  ),
  w(
    6,
    fc.tuple(among, back, amount).map(([a, b, x]) => new IncrementCommand(a, b, x)),
  ),
  w(
    6,
    fc.tuple(among, back, completeSize, suffix).map(([a, b, s, x]) => new CompleteCommand(a, b, s, x)),
  ),
  w(
    2,
    fc.tuple(revertAmong, back).map(([a, b]) => new RevertCommand(a, b)),
  ),
  w(
    2,
    fc.tuple(back, refundSize, suffix).map(([b, s, x]) => new LinkedRefundCommand(b, s, x)),
  ),
);

/**
 * Keeps a sequence short: fast-check draws long lists (a command that cannot run in the model's
 * state is skipped at no cost) and the model closes the sequence after `cap` convergences (waits and
 * operations, which take time; answers alone are cheap) or `3 * cap` commands.
 */
class Capped implements ModelCommand {
  constructor(readonly inner: ModelCommand) {}
  check(m: Readonly<TerminalModel>): boolean {
    return m.open && this.inner.check(m);
  }
  async run(m: TerminalModel, r: Real): Promise<void> {
    m.executed++;
    const started = Date.now();
    try {
      await this.inner.run(m, r);
    } finally {
      r.note(`  (${this.inner} took ${Date.now() - started} ms)`);
    }
  }
  toString(): string {
    return this.inner.toString();
  }
}

/** Command lists for sequences the model closes at `cap` (see Capped); `replayPath` replays a counterexample. */
export function commandsArb(cap: number, replayPath?: string) {
  return fc.commands([commandArb.map((c) => new Capped(c) as ModelCommand)], {
    maxCommands: cap * 5,
    size: 'max',
    ...(replayPath ? { replayPath } : {}),
  });
}

/** A command sequence as fast-check draws it. */
export type Commands = Parameters<typeof fc.asyncModelRun>[1];

/** A sequence's commands in order, ran or not: equal for the same sequence drawn twice (fc.sample and fc.check, one seed). */
export function commandsKey(cmds: Commands): string {
  return [...cmds].map(String).join(',');
}

/**
 * Marks the commands of `to` (fast-check's value) that ran in `from` (the same sequence, drawn
 * beforehand and run ahead, suites/_setup/ahead.ts): fast-check prints a sequence, and shrinks it,
 * by the commands that ran (its command wrapper's `hasRan`, which asyncModelRun sets).
 */
export function markRan(from: Commands, to: Commands): void {
  const ran = [...from].map((c) => (c as { hasRan?: boolean }).hasRan === true);
  [...to].forEach((c, i) => {
    if (ran[i]) (c as { hasRan?: boolean }).hasRan = true;
  });
}
