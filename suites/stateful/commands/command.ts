/**
 * What every command of the model run shares: fast-check's command shape over the terminal model
 * and the real pairing, how a command names its target, and the probe of an unknown id.
 */
import type { AsyncCommand } from 'fast-check';
import type { OperationId } from '../../../src/index.ts';
import type { MTxn, TerminalModel } from '../model.ts';
import type { Real } from '../real.ts';

/** A command: `check(model)` (may it run now?), `run(model, real)`, `toString()`. */
export type ModelCommand = AsyncCommand<TerminalModel, Real>;

/** `back` of a command aimed at an id no terminal knows. */
export const UNKNOWN = -1;

/** `last`, `last-1`...: the `back`-th most recent candidate; `unknown`: an unknown id. */
export const target = (back: number): string => (back === UNKNOWN ? 'unknown' : back === 0 ? 'last' : `last-${back}`);

/**
 * Which transactions a command may aim at. Pools depend only on what the sequence created and on
 * final statuses that waits observed, never on a race, so `check` stays deterministic.
 * `all`: every transaction; `settled`: those whose final status a wait observed; `success`: settled
 * in SUCCESS; `authorized`: settled preauthorizations in SUCCESS.
 */
export type Pool = 'all' | 'settled' | 'success' | 'authorized';

export function pool(m: Readonly<TerminalModel>, p: Pool): MTxn[] {
  switch (p) {
    case 'all':
      return m.txns;
    case 'settled':
      return m.txns.filter((t) => t.status !== 'PENDING');
    case 'success':
      return m.txns.filter((t) => t.status === 'SUCCESS');
    case 'authorized':
      return m.txns.filter((t) => t.kind === 'preauth' && t.status === 'SUCCESS');
  }
}

/** Whether a command aimed at `back` in `p` has something to aim at. */
export const hasTarget = (m: Readonly<TerminalModel>, p: Pool, back: number): boolean => back === UNKNOWN || pool(m, p).length > 0;

/** The `back`-th most recent transaction of the pool (undefined for the unknown id). */
export function aim(m: Readonly<TerminalModel>, p: Pool, back: number): MTxn | undefined {
  if (back === UNKNOWN) return undefined;
  const list = pool(m, p);
  return list[list.length - 1 - (back % list.length)];
}

/** An id no terminal knows (a well-formed UUID). */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The request for an unknown id: sandbox.md says unknown transaction ids answer 404. */
export async function probeUnknown(r: Real, command: string, op: OperationId, body?: unknown): Promise<void> {
  const res = await r.call(op, { params: { transaction_id: UNKNOWN_ID }, ...(body === undefined ? {} : { body }) });
  r.answer(command, res, { codes: [404], why: 'no transaction has this id', clause: 'sandbox#errors' });
}
