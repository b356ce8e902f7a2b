/** Preauthorization increment and complete: 200 only for a successful preauthorization, else 400. */
import { type MTxn, type TerminalModel, amountAbove, amountAtMost } from '../model.ts';
import type { Real } from '../real.ts';
import { type ModelCommand, type Pool, aim, hasTarget, probeUnknown, target } from './command.ts';
import { followOperation } from './operation.ts';

/** `authorized`: a successful preauthorization; `any`: any transaction whose final status is known. */
export type Among = 'authorized' | 'any';
const poolOf = (a: Among): Pool => (a === 'authorized' ? 'authorized' : 'settled');

/**
 * Operations are not new transactions (no 409), so they may run while a transaction finishes; not
 * while one waits for its deadline, because each operation takes a convergence of its own and the
 * waiting transaction must still be pending when the next command relies on it.
 */
const allowed = (m: Readonly<TerminalModel>, among: Among, back: number) => !m.pendingIsWaiting() && hasTarget(m, poolOf(among), back);

export class IncrementCommand implements ModelCommand {
  constructor(
    readonly among: Among,
    readonly back: number,
    readonly amount: number,
  ) {}

  check(m: Readonly<TerminalModel>): boolean {
    return allowed(m, this.among, this.back);
  }

  async run(m: TerminalModel, r: Real): Promise<void> {
    const t = aim(m, poolOf(this.among), this.back);
    if (!t) return probeUnknown(r, this.toString(), 'preauthIncrement', { amount: this.amount });
    const p = m.predictPreauthOp(t);
    const res = await r.call('preauthIncrement', { params: { transaction_id: t.id }, body: { amount: this.amount } });
    const command = `${this} [${t.label}]`;
    r.answer(command, res, p);
    if (res.status !== 200) return;
    await followOperation(
      m,
      r,
      command,
      res,
      t,
      'transaction.preauth.increment',
      m.predictIncrement(t, this.amount),
      'sandbox#preauthorization',
      (s) => m.applyIncrement(t, this.amount, s),
    );
  }

  toString(): string {
    return `Increment(${this.among} ${target(this.back)}, ${this.amount})`;
  }
}

/** `exact`: the authorized amount; `below`: less than it; `above`: more than it (and its tip). */
export type CompleteSize = 'exact' | 'below' | 'above';

export class CompleteCommand implements ModelCommand {
  constructor(
    readonly among: Among,
    readonly back: number,
    readonly size: CompleteSize,
    readonly suffix: number,
  ) {}

  check(m: Readonly<TerminalModel>): boolean {
    return allowed(m, this.among, this.back);
  }

  private amountFor(t: MTxn): number {
    if (this.size === 'exact') return t.authorized;
    return this.size === 'below' ? amountAtMost(t.authorized - 1, this.suffix) : amountAbove(t.authorized + t.tip, this.suffix);
  }

  async run(m: TerminalModel, r: Real): Promise<void> {
    const t = aim(m, poolOf(this.among), this.back);
    if (!t) return probeUnknown(r, this.toString(), 'preauthComplete', { amount: 100 + this.suffix });
    const amount = this.amountFor(t);
    const p = m.predictPreauthOp(t);
    const res = await r.call('preauthComplete', { params: { transaction_id: t.id }, body: { amount } });
    const command = `${this} [${t.label}, amount ${amount}]`;
    r.answer(command, res, p);
    if (res.status !== 200) return;
    await followOperation(
      m,
      r,
      command,
      res,
      t,
      'transaction.preauth.complete',
      m.predictComplete(t, amount),
      'sandbox#preauthorization',
      (s) => m.applyComplete(t, amount, s),
    );
  }

  toString(): string {
    return `Complete(${this.among} ${target(this.back)}, ${this.size === 'exact' ? 'exact' : `${this.size} ..${String(this.suffix).padStart(2, '0')}`})`;
  }
}
