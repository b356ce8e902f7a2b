/** Fetches the print slip: 200 for a final transaction (with the model's status and amounts), 400 before. */
import type { TerminalModel } from '../model.ts';
import type { Real } from '../real.ts';
import { type ModelCommand, aim, hasTarget, probeUnknown, target } from './command.ts';
import { expiredMeanwhile } from './wait.ts';

export class SlipCommand implements ModelCommand {
  constructor(readonly back: number) {}

  check(m: Readonly<TerminalModel>): boolean {
    return hasTarget(m, 'all', this.back);
  }

  async run(m: TerminalModel, r: Real): Promise<void> {
    const t = aim(m, 'all', this.back);
    if (!t) return probeUnknown(r, this.toString(), 'getPrintSlip');
    let p = m.predictSlip(t);
    const res = await r.call('getPrintSlip', { params: { transaction_id: t.id } });
    const command = `${this} [${t.label}]`;
    let note: string | undefined;
    if (res.status === 200 && t === m.pending && m.pendingIsWaiting()) {
      // 200 is legal only if the transaction reached its deadline meanwhile: read it now.
      const e = await expiredMeanwhile(m, r, command);
      if (e.expired) p = m.predictSlip(t);
      else note = `print slip answered although ${t.label} is still ${e.status} right after (400 while INITIATED or IN_PROGRESS)`;
    }
    r.answer(command, res, p, note);
    if (res.status !== 200 || typeof res.body !== 'object' || res.body === null) return;
    r.judge('model.final-state', {
      command: this.toString(),
      label: `${t.label} (${t.id})`,
      what: 'print slip',
      expected: m.expected(t),
      actual: res.body as Record<string, unknown>,
      clause: 'sandbox#status-and-print-slip',
    });
  }

  toString(): string {
    return `Slip(${target(this.back)})`;
  }
}
