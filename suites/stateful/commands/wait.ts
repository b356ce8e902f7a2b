/** Waits for the pending transaction to converge (polling and webhook) and judges its final state. */
import type { FinalStatus, TerminalModel } from '../model.ts';
import { ModelDeviation, type Real, isFinal } from '../real.ts';
import type { ModelCommand } from './command.ts';

/** Converges the pending transaction and checks its final status and amounts (and its parent's). */
export async function settlePending(m: TerminalModel, r: Real, command: string): Promise<void> {
  const t = m.pending!;
  const expected = m.expected(t);
  const before = r.scope.failed.length;
  m.converged++;
  const clause =
    t.kind === 'refund' ? 'sandbox#revert-and-refund' : t.kind === 'preauth' ? 'sandbox#preauthorization' : 'sandbox#transactions';
  // The record once the settle window is over (behind the next commands): a status that changed after
  // it was final fails the sequence when the watch is judged.
  const obs = await r.scope.converge(r.pairing, 'transaction', t.id, {
    ...(await r.watch(t.id)),
    onSettled: (full) =>
      r.scope.check('model.final-state', {
        command,
        label: `${t.label} (${t.id})`,
        what: 'status record',
        expected,
        actual: full.last,
        clause,
      }),
  });
  r.note(
    `${command}: ${t.label} ${obs.polled.map((s) => s.status).join(' > ') || '(nothing)'} (model: ${expected.status.join('|')}; webhooks: ${obs.webhooks.map((s) => `${s.status}@${s.atMs}`).join(' ') || 'none'}; ${obs.elapsedMs} ms)`,
  );
  if (r.scope.failed.length > before) throw new ModelDeviation(r.scope.failed[before]!.message);
  if (!obs.finalByPoll) throw new ModelDeviation(`${t.label} did not reach a final status`);
  m.settle(t, obs.finalByPoll as FinalStatus);
  if (t.parent && t.status === 'SUCCESS') {
    // On SUCCESS the original's refund_total_amount grows.
    const parent = t.parent;
    const rec = await r.record(parent.id);
    r.note(`  ${parent.label}: refund_total_amount ${String(rec?.refund_total_amount)} (model: ${parent.refundTotal})`);
    r.judge('model.final-state', {
      command,
      label: `${parent.label} (${parent.id})`,
      what: 'status record after its refund',
      expected: m.expected(parent),
      actual: rec,
      clause: 'sandbox#revert-and-refund',
    });
  }
}

/**
 * The model holds a transaction that waits for a cancel or the deadline (54, 55) for pending, and an
 * answer said otherwise: legal only if the deadline passed meanwhile. Reads the transaction: when
 * final, the model settles it (its record judged like a wait's) and `expired` is true; else the
 * status it is still in.
 */
export async function expiredMeanwhile(
  m: TerminalModel,
  r: Real,
  command: string,
): Promise<{ expired: true } | { expired: false; status: string }> {
  const t = m.pending!;
  const rec = await r.record(t.id);
  if (!isFinal(rec?.status)) return { expired: false, status: String(rec?.status) };
  r.note(`  ${t.label} is ${String(rec!.status)} now: its deadline passed meanwhile`);
  r.judge('model.final-state', {
    command,
    label: `${t.label} (${t.id})`,
    what: 'status record (deadline passed meanwhile)',
    expected: m.expected(t),
    actual: rec,
    clause: 'sandbox#transactions',
  });
  m.settle(t, rec!.status as FinalStatus);
  return { expired: true };
}

export class WaitCommand implements ModelCommand {
  check(m: Readonly<TerminalModel>): boolean {
    return m.pending !== undefined;
  }

  run(m: TerminalModel, r: Real): Promise<void> {
    return settlePending(m, r, this.toString());
  }

  toString(): string {
    return 'Wait';
  }
}
