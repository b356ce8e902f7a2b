/** Cancel: 200 while INITIATED or IN_PROGRESS (then CANCELED, or SUCCESS for 56), 400 once final. */
import type { TerminalModel } from '../model.ts';
import { type Real, isFinal } from '../real.ts';
import { type ModelCommand, aim, hasTarget, probeUnknown, target } from './command.ts';
import { expiredMeanwhile } from './wait.ts';

export class CancelCommand implements ModelCommand {
  constructor(readonly back: number) {}

  check(m: Readonly<TerminalModel>): boolean {
    return hasTarget(m, 'all', this.back);
  }

  async run(m: TerminalModel, r: Real): Promise<void> {
    const t = aim(m, 'all', this.back);
    if (!t) return probeUnknown(r, this.toString(), 'cancelTransaction');
    let p = m.predictCancel(t);
    const res = await r.call('cancelTransaction', { params: { transaction_id: t.id } });
    const command = `${this} [${t.label}]`;
    let note: string | undefined;
    if (res.status === 400 && t.status === 'PENDING') {
      // 400 is legal only if the transaction had finished (or reached its deadline): read it now.
      if (t === m.pending && m.pendingIsWaiting()) {
        const e = await expiredMeanwhile(m, r, command);
        if (e.expired) p = m.predictCancel(t);
        else
          note = `cancel refused although ${t.label} is still ${e.status} right after (cancel answers 200 while INITIATED or IN_PROGRESS)`;
      } else {
        const status = (await r.record(t.id))?.status;
        if (!isFinal(status))
          note = `cancel refused although ${t.label} is still ${String(status)} right after (cancel answers 200 while INITIATED or IN_PROGRESS)`;
      }
    }
    r.answer(command, res, p, note);
    if (res.status === 200 && t.status === 'PENDING') t.canceled = true;
  }

  toString(): string {
    return `Cancel(${target(this.back)})`;
  }
}
