/** Revert: only the terminal's most recent SUCCESS transaction (else 400); it ends REVERTED. */
import type { TerminalModel } from '../model.ts';
import type { Real } from '../real.ts';
import { type ModelCommand, type Pool, aim, hasTarget, probeUnknown, target } from './command.ts';
import { followOperation } from './operation.ts';

/** `success`: a transaction in SUCCESS; `any`: any whose final status is known. */
export type RevertAmong = 'success' | 'any';
const poolOf = (a: RevertAmong): Pool => (a === 'success' ? 'success' : 'settled');

export class RevertCommand implements ModelCommand {
  constructor(
    readonly among: RevertAmong,
    readonly back: number,
  ) {}

  /** Only when idle: a transaction finishing meanwhile could become the most recent SUCCESS. */
  check(m: Readonly<TerminalModel>): boolean {
    return m.pending === undefined && hasTarget(m, poolOf(this.among), this.back);
  }

  async run(m: TerminalModel, r: Real): Promise<void> {
    const t = aim(m, poolOf(this.among), this.back);
    if (!t) return probeUnknown(r, this.toString(), 'revertTransaction');
    const p = m.predictRevert(t);
    const res = await r.call('revertTransaction', { params: { transaction_id: t.id } });
    const command = `${this} [${t.label}]`;
    r.answer(command, res, p);
    if (res.status !== 200) return;
    // A revert has no amount: the table's "anything else", SUCCESS.
    await followOperation(
      m,
      r,
      command,
      res,
      t,
      'transaction.revert',
      { status: ['SUCCESS'], why: 'a revert of the most recent SUCCESS succeeds' },
      'sandbox#revert-and-refund',
      (s) => m.applyRevert(t, s),
    );
  }

  toString(): string {
    return `Revert(${this.among} ${target(this.back)})`;
  }
}
