/** Converges an operation the service accepted and judges its outcome and its transaction. */
import type { MTxn, TerminalModel } from '../model.ts';
import { ModelDeviation, type Real, idIn } from '../real.ts';
import type { PayConnectResponse } from '../../../src/index.ts';

/**
 * Follows the operation of a 200 answer to its end, checks its final status against `expected`,
 * lets `apply` update the model, then checks the transaction's record against the model.
 */
export async function followOperation(
  m: TerminalModel,
  r: Real,
  command: string,
  res: PayConnectResponse,
  t: MTxn,
  operationType: string,
  predicted: { status: string[]; why: string },
  clause: string,
  apply: (status: string) => void,
): Promise<void> {
  const opId = idIn(res, 'operation_id');
  if (!opId) throw new ModelDeviation(`${command}: 200 without an operation_id; the model cannot follow the operation`);
  const before = r.scope.failed.length;
  m.converged++;
  // The outcome once the settle window is over (behind the next commands): one that changed after it
  // was final fails the sequence when the watch is judged.
  const obs = await r.scope.converge(r.pairing, 'operation', opId, {
    ...(await r.watch(opId)),
    onSettled: (full) =>
      r.scope.check('model.operation-outcome', {
        command,
        label: `${t.label} (${t.id})`,
        operationType,
        transactionId: t.id,
        expected: predicted.status,
        why: predicted.why,
        actual: full.finalByPoll,
        record: full.last,
        clause,
      }),
  });
  r.note(
    `  operation ${opId}: ${obs.polled.map((s) => s.status).join(' > ') || '(nothing)'} (model: ${predicted.status.join('|')}: ${predicted.why})`,
  );
  if (r.scope.failed.length > before) throw new ModelDeviation(r.scope.failed[before]!.message);
  if (!obs.finalByPoll) throw new ModelDeviation(`${command}: the operation did not reach a final status`);
  apply(obs.finalByPoll);
  const rec = await r.record(t.id);
  r.note(`  ${t.label}: ${String(rec?.status)} amount ${String(rec?.amount)} (model: ${t.status} amount ${t.amount})`);
  r.judge('model.final-state', {
    command,
    label: `${t.label} (${t.id})`,
    what: `status record after ${operationType}`,
    expected: m.expected(t),
    actual: rec,
    clause,
  });
}
