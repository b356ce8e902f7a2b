/**
 * Helpers of the flow suites (payment, cancel, preauth, print-slip, refund): start a transaction on an
 * idle terminal, read and wait for a status, cancel and judge the answer, free the terminal whatever
 * happened, and fetch a print slip with the checks that relate it to the transaction.
 */
import { randomUUID } from 'node:crypto';
import type { OperationId, Outcome, Pairing, PayConnectResponse, Plan } from '../../../src/index.ts';
import { PACT_BASE_AMOUNT, expectedOutcome } from '../../../src/index.ts';
import { type SettleOptions, settle, slipOf } from './flows.ts';
import type { ScenarioContext } from '../../../src/suite.ts';

export type Rec = Record<string, unknown>;
export type Observation = Awaited<ReturnType<ScenarioContext['scope']['converge']>>;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An id no service has issued. */
export const unknownId = () => `pcc-unknown-${randomUUID()}`;

/**
 * True against the Pact mock (`--target pact`): every request gets the one fixed answer its interaction
 * declares (src/pact/consumer/interactions.ts), status records already final. Amounts are not spread
 * by seed there, and client_transaction_ids are the catalogue's (see {@link pactClientTransactionId}).
 */
export const underPact = (t: ScenarioContext) => t.harness.ctx.targetKind === 'pact';

/** The catalogue's slug of an outcome (its example ids `tx_example_<slug>` and `order-<slug>`). */
const PACT_SLUG: Partial<Record<Outcome, string>> = {
  approve: 'success',
  decline: 'declined',
  fail: 'failed',
  expire: 'expired',
  tip: 'tip',
};

/**
 * The client_transaction_id a scenario sends for an outcome: against the Pact mock the one the
 * catalogue's status record echoes (`order-<slug>`), elsewhere `fallback`.
 */
export function pactClientTransactionId(t: ScenarioContext, want: Outcome, fallback: string): string {
  const slug = PACT_SLUG[want];
  return underPact(t) && slug ? `order-${slug}` : fallback;
}

/** True in `--terminal auto` (outcomes chosen by amount). */
export const isAuto = (t: ScenarioContext) => t.terminal.mode === 'auto';

/** Whether `status` is a final transaction status of the profile. */
export function isFinal(t: ScenarioContext, status: string | undefined): boolean {
  return status !== undefined && t.harness.profile.transactionFinal.includes(status);
}

/** How long a helper waits for the terminal: the convergence deadline. */
const budget = (t: ScenarioContext) => t.harness.ctx.deadlineMs;

/** The amount for an outcome in this mode, without touching the reported parameters. */
export function amountFor(t: ScenarioContext, want: Parameters<ScenarioContext['terminal']['plan']>[0], base: number): Plan {
  const plan = t.terminal.plan(want, base);
  if (typeof plan === 'string') t.skip(plan);
  return plan;
}

/** A plan for an amount chosen here (auto mode: the table's expectation; else none). */
export function planOf(t: ScenarioContext, amount: number, expectFinal?: string): Plan {
  if (!isAuto(t)) return { amount };
  return { amount, expect: expectFinal ? { final: expectFinal, tip: 0 } : expectedOutcome(t.harness.profile, amount) };
}

/** Reads the transaction's status record once. */
export async function readStatus(
  t: ScenarioContext,
  p: Pairing,
  id: string,
): Promise<{ status?: string; record?: Rec; res: PayConnectResponse }> {
  const res = await t.scope.call(p, 'getTransactionStatus', { params: { transaction_id: id } });
  const record = res.status === 200 && isRec(res.body) ? res.body : undefined;
  return { status: typeof record?.status === 'string' ? record.status : undefined, record, res };
}

/**
 * Polls the status until `until(status)` holds, the status is final (unless `pastFinal`: SUCCESS may
 * still become REVERTED), or the deadline passes. Tight intervals: the sandbox's steps can be a few
 * tens of milliseconds.
 */
export async function waitForStatus(
  t: ScenarioContext,
  p: Pairing,
  id: string,
  until: (s: string) => boolean,
  intervalMs = 3,
  opts: { pastFinal?: boolean } = {},
) {
  const end = Date.now() + t.harness.budgeted(budget(t));
  for (;;) {
    const r = await readStatus(t, p, id);
    if (r.status !== undefined && (until(r.status) || (!opts.pastFinal && isFinal(t, r.status)))) return r;
    if (Date.now() >= end) return r;
    // Transactions of this service are known not to end (twice in a row): no wait on one is worth it.
    const stuck = t.harness.defects.blocker('transaction-final');
    if (stuck) t.scope.blockBy(stuck);
    await sleep(intervalMs);
  }
}

/** The harnesses (terminals) that stayed busy a whole deadline: later starts on them do not wait again. */
const stuckTerminals = new WeakSet<object>();

/**
 * Calls a starting operation (generate, preauth, refunds); while it answers 409 (an earlier
 * transaction, maybe of another scenario, still pending) waits and retries up to the deadline.
 */
export async function callIdle(
  t: ScenarioContext,
  p: Pairing,
  op: OperationId,
  body: unknown,
  params?: Record<string, string>,
): Promise<PayConnectResponse> {
  const end = Date.now() + t.harness.budgeted(budget(t));
  let res = await t.scope.call(p, op, { body, params });
  while (res.status === 409 && !stuckTerminals.has(t.harness) && !t.harness.defects.blocker('transaction-final') && Date.now() < end) {
    await sleep(100);
    res = await t.scope.call(p, op, { body, params });
  }
  if (res.status === 409) stuckTerminals.add(t.harness);
  else stuckTerminals.delete(t.harness);
  return res;
}

/** Starts a transaction on an idle terminal and returns its id, or stops the scenario. */
export async function begin(
  t: ScenarioContext,
  p: Pairing,
  op: OperationId,
  body: Rec,
  params?: Record<string, string>,
): Promise<{ id: string; res: PayConnectResponse }> {
  const res = await callIdle(t, p, op, body, params);
  // Busy for a whole deadline after an earlier transaction never converged (a failure already
  // reported where it happened): this scenario cannot run, and is not to blame.
  if (res.status === 409 && t.harness.timings.some((c) => c.kind === 'transaction' && c.timedOut)) {
    t.scope.block(
      `${op} answered 409 for the whole deadline: the terminal is still busy with an earlier transaction that never reached a final status`,
    );
  }
  return { id: t.scope.idFrom(res, 'transaction_id', op), res };
}

/** The transaction id of a 2xx answer, if any (for a request that should have been refused). */
export function createdId(res: PayConnectResponse): string | undefined {
  const id = isRec(res.body) ? res.body.transaction_id : undefined;
  return res.status >= 200 && res.status < 300 && typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Cancels and judges the answer: 200 while the transaction is pending (spec), 400 once it is final
 * (sandbox). The answer is never taken as the result: the caller converges.
 */
export async function cancelJudged(t: ScenarioContext, p: Pairing, id: string): Promise<PayConnectResponse> {
  const res = await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
  if (res.status === 200) return res;
  const after = await readStatus(t, p, id);
  if (isFinal(t, after.status) && after.status !== 'CANCELED') t.scope.check('sandbox.cancel-final', res.exchange);
  else t.scope.check('request.accepted', res.exchange);
  return res;
}

/**
 * The final status to expect after a cancel: CANCELED when the cancel was taken; none when it was
 * refused because the transaction had ended already (it expired before the cancel arrived: on a loaded
 * runner the harness can be that late, and the service was right to refuse).
 */
export function afterCancel(res: PayConnectResponse): 'CANCELED' | undefined {
  return res.status === 200 ? 'CANCELED' : undefined;
}

/**
 * Frees the terminal: cancels a transaction that is not final and waits for its end. Never throws
 * (it runs in `finally`, after whatever stopped the scenario).
 */
export async function release(t: ScenarioContext, p: Pairing, id: string | undefined): Promise<void> {
  if (id === undefined) return;
  try {
    const r = await readStatus(t, p, id);
    if (r.status === undefined || isFinal(t, r.status)) return;
    await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
    // One that already missed its deadline is not waited for a second time here: the harness frees
    // (or retires) a shared terminal left busy, with the ledger's judgement of such waits.
    if (p.overdue.has(id)) return;
    await waitForStatus(t, p, id, () => false, 50);
  } catch {
    // best effort
  }
}

/** The status of a transaction the terminal should keep INITIATED (55, offline; auto mode), checked as waiting there. */
export async function heldInitiated(
  t: ScenarioContext,
  p: Pairing,
  id: string,
  amount: number,
): Promise<Awaited<ReturnType<typeof readStatus>>> {
  const before = await readStatus(t, p, id);
  t.scope.check('sandbox.waiting-status', { amount, expected: 'INITIATED', actual: before.status });
  return before;
}

/** Converges with an expected final status of this scenario's own (auto mode only). */
export function settleAs(
  t: ScenarioContext,
  p: Pairing,
  id: string,
  amount: number,
  expectFinal: string | undefined,
  what: string,
  converge: SettleOptions = {},
) {
  return settle(t, p, id, isAuto(t) && expectFinal ? { amount, expect: { final: expectFinal, tip: 0 } } : { amount }, what, converge);
}

/** Fetches the print slip (automatic checks, slip vs config) and relates it to the converged transaction. */
export async function slipChecked(
  t: ScenarioContext,
  p: Pairing,
  id: string,
  obs: Pick<Observation, 'finalByPoll' | 'last'>,
): Promise<Rec | undefined> {
  const res = await slipOf(t, p, id);
  if (obs.finalByPoll) t.scope.check('print-slip.final-available', { status: obs.finalByPoll, exchange: res.exchange });
  if (res.status !== 200 || !isRec(res.body)) return undefined;
  if (obs.last && obs.last.status === obs.finalByPoll)
    t.scope.check('print-slip.agrees-with-status', { slip: res.body, record: obs.last, exchange: res.exchange });
  return res.body;
}

/** The base amount of this run (spread by seed, like planFor's), capped by --max-amount off a sandbox. */
export const baseAmount = (t: ScenarioContext, offset = 0) => {
  const spread = underPact(t) ? 0 : ((t.harness.ctx.seed >>> 0) % 50) * 100;
  const amount = PACT_BASE_AMOUNT + spread + offset * 100;
  return t.harness.ctx.sandbox ? amount : Math.min(amount, t.harness.ctx.maxAmount);
};

/** Whether `amount` may be sent (the scope refuses amounts above --max-amount to a target that is not a sandbox). */
export const sendable = (t: ScenarioContext, amount: number) => t.harness.ctx.sandbox || amount <= t.harness.ctx.maxAmount;

/** Skips unless `amount` may be sent. */
export function needSendable(t: ScenarioContext, amount: number, what: string): void {
  if (!sendable(t, amount))
    t.skip(`${what} needs amount ${amount}, above --max-amount ${t.harness.ctx.maxAmount} on a target that is not a sandbox`);
}
