/** Linked refund: of a SUCCESS transaction, at most what is left unrefunded; a new transaction. */
import { TerminalModel, amountAbove, amountAtMost } from '../model.ts';
import { ModelDeviation, type Real, idIn } from '../real.ts';
import { type ModelCommand, aim, hasTarget, probeUnknown, target } from './command.ts';
import { expiredMeanwhile } from './wait.ts';

/** `part`: about half of what is left; `rest`: all of it; `over`: more than is left. */
export type RefundSize = 'part' | 'rest' | 'over';

export class LinkedRefundCommand implements ModelCommand {
  constructor(
    readonly back: number,
    readonly size: RefundSize,
    readonly suffix: number,
  ) {}

  /** Like every new transaction: when idle, or busy with one that certainly still waits (409). */
  check(m: Readonly<TerminalModel>): boolean {
    return (m.pending === undefined || m.pendingIsWaiting()) && hasTarget(m, 'all', this.back);
  }

  async run(m: TerminalModel, r: Real): Promise<void> {
    const t = aim(m, 'all', this.back);
    if (!t) return probeUnknown(r, this.toString(), 'linkedRefund', { amount: 100 + this.suffix });
    const [lo, hi] = TerminalModel.refundable(t);
    const amount =
      this.size === 'over' ? amountAbove(hi, this.suffix) : amountAtMost(this.size === 'part' ? Math.floor(lo / 2) : lo, this.suffix);
    let p = m.predictLinkedRefund(t, amount);
    const res = await r.call('linkedRefund', { params: { transaction_id: t.id }, body: { amount } });
    const command = `${this} [${t.label}, amount ${amount}]`;
    let note: string | undefined;
    if (!p.codes.includes(res.status) && m.pending) {
      const busy = m.pending;
      const e = await expiredMeanwhile(m, r, command);
      if (e.expired) p = m.predictLinkedRefund(t, amount);
      else if (res.status === 200)
        note = `a refund was accepted although ${busy.label} (amount ${busy.requested}) is still ${e.status} right after (one transaction at a time: 409)`;
    }
    r.answer(command, res, p, note);
    if (res.status !== 200) return;
    const id = idIn(res, 'transaction_id');
    if (!id) throw new ModelDeviation(`${this}: 200 without a transaction_id; the model cannot follow the refund`);
    const refund = m.add(id, 'refund', amount, t);
    r.note(`  ${refund.label} = ${id} (refund of ${t.label})`);
  }

  toString(): string {
    return `LinkedRefund(${target(this.back)}, ${this.size} ..${String(this.suffix).padStart(2, '0')})`;
  }
}
