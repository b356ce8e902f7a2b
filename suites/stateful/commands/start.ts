/** generate, preauth and independent refund: a new transaction, or 409 while the terminal is busy. */
import type { OperationId } from '../../../src/index.ts';
import { freshClientTransactionId } from '../../_setup/steps/client-transaction-id.ts';
import { type TerminalModel, type TxnKind, suffixOf } from '../model.ts';
import { ModelDeviation, type Real, idIn } from '../real.ts';
import type { ModelCommand } from './command.ts';
import { expiredMeanwhile, settlePending } from './wait.ts';

const OPS: Record<'Generate' | 'Preauth' | 'IndependentRefund', { op: OperationId; kind: TxnKind }> = {
  Generate: { op: 'generateTransaction', kind: 'payment' },
  Preauth: { op: 'startPreauth', kind: 'preauth' },
  IndependentRefund: { op: 'independentRefund', kind: 'refund' },
};

/**
 * Starts a transaction; with `settle`, then waits for it like the Wait command does (a start
 * followed at once by its wait: the common case, and one command of the sequence instead of two).
 */
export class StartCommand implements ModelCommand {
  constructor(
    readonly name: keyof typeof OPS,
    readonly amount: number,
    readonly settle = false,
  ) {}

  /**
   * Runs when the terminal is idle (200) or busy with a transaction that certainly still waits
   * (409). Not while a transaction may be finishing: whether 200 or 409 would then be a race.
   */
  check(m: Readonly<TerminalModel>): boolean {
    return m.pending === undefined || m.pendingIsWaiting();
  }

  async run(m: TerminalModel, r: Real): Promise<void> {
    const { op, kind } = OPS[this.name];
    let p = m.predictStart();
    const res = await r.call(op, {
      body: { amount: this.amount, client_transaction_id: freshClientTransactionId(`stateful-${m.txns.length + 1}`) },
    });
    let note: string | undefined;
    if (res.status === 200 && m.pending) {
      const busy = m.pending;
      const e = await expiredMeanwhile(m, r, this.toString());
      if (e.expired) p = m.predictStart();
      else
        note = `a second transaction was accepted although ${busy.label} (amount ${busy.requested}) is still ${e.status} right after (one transaction at a time: 409)`;
    }
    r.answer(this.toString(), res, p, note);
    if (res.status !== 200) return;
    const id = idIn(res, 'transaction_id');
    if (!id) throw new ModelDeviation(`${this}: 200 without a transaction_id; the model cannot follow the transaction`);
    const t = m.add(id, kind, this.amount);
    r.note(`  ${t.label} = ${id} (outcome row ${suffixOf(this.amount)})`);
    if (this.settle) await settlePending(m, r, this.toString());
  }

  toString(): string {
    return `${this.name}(${this.amount}${this.settle ? ', wait' : ''})`;
  }
}
