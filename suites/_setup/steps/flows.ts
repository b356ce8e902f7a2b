/**
 * Building blocks the scenarios share: start a payment the way the terminal mode wants it, converge
 * it, and check its outcome and slip.
 */
import type { OperationId, Outcome, Pairing, PayConnectResponse, Plan } from '../../../src/index.ts';
import { OperatorAbort, OperatorRedo, type ScenarioContext } from '../../../src/suite.ts';

/** The plan for `want`, or skips the test when the terminal mode cannot produce it. */
export function planFor(t: ScenarioContext, want: Outcome, base?: number): Plan {
  // Against the Pact mock the amounts are the catalogue's own (one fixed answer per request): no spread by seed.
  const spread = t.harness.ctx.targetKind === 'pact' ? 0 : ((t.harness.ctx.seed >>> 0) % 50) * 100;
  const plan = t.terminal.plan(want, base ?? 1000 + spread);
  if (typeof plan === 'string') t.skip(plan);
  t.param('outcome', want);
  t.param('amount', plan.amount);
  return plan;
}

/** Starts a transaction with `op` (generate, preauth, refunds) and returns its id, or blocks. */
export async function start(
  t: ScenarioContext,
  p: Pairing,
  op: OperationId,
  body: Record<string, unknown>,
  params?: Record<string, string>,
): Promise<{ id: string; res: PayConnectResponse }> {
  const res = await t.scope.call(p, op, { body, params });
  const id = t.scope.idFrom(res, 'transaction_id', op);
  return { id, res };
}

/** What a settle may change of its convergence: the webhook grace, and the settle window when a clock skip went through it. */
export type SettleOptions = { webhookGraceMs?: number; settleMs?: number };

/**
 * Converges a transaction and checks the planned outcome. In manual mode the operator is told what to
 * do and watches the status converge; skip, redo and abort end the step at once (the transaction is
 * canceled so the terminal is free), and what they did is kept in the test's evidence.
 */
export async function settle(t: ScenarioContext, p: Pairing, id: string, plan: Plan, what = 'amount', converge: SettleOptions = {}) {
  const obs =
    t.terminal.mode === 'manual' ? await attended(t, p, id, plan, converge) : await t.scope.converge(p, 'transaction', id, converge);
  if (plan.expect) {
    t.scope.check('sandbox.outcome', {
      amount: plan.amount,
      expected: plan.expect.final,
      actual: obs.finalByPoll,
      expectedTip: plan.expect.tip,
      actualTip: obs.last?.tip_amount,
      what,
    });
  }
  return obs;
}

/** What a manual step asks when the scenario planned no outcome of its own. */
const ANY_PAYMENT = 'Complete the payment on the terminal with the approve test card.';

type Converged = Awaited<ReturnType<ScenarioContext['scope']['converge']>>;

/** The manual form of settle: the operator's step around the convergence. */
async function attended(t: ScenarioContext, p: Pairing, id: string, plan: Plan, converge: SettleOptions): Promise<Converged> {
  const instruction = plan.instruction ?? ANY_PAYMENT;
  const step = t.harness.ctx.manualPlan?.find((s) => s.test === t.scope.testName)?.outcome ?? 'approve';
  let obs: Converged | undefined;
  const verdict = await t.terminal.attend(
    {
      test: t.scope.testName,
      instruction,
      ...(plan.expect ? { expected: plan.expect.final } : {}),
      ...(p.credentials.terminal_id ? { terminalId: p.credentials.terminal_id } : {}),
    },
    async (status, stop) => {
      // The operator ended the step: cancel, so the wait ends and the terminal is free for the next.
      stop.addEventListener(
        'abort',
        () => void t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } }).catch(() => undefined),
        { once: true },
      );
      obs = await t.scope.converge(p, 'transaction', id, { ...converge, onStatus: status });
      return obs.finalByPoll !== undefined ? { final: obs.finalByPoll } : {};
    },
  );
  const kind = verdict.kind === 'done' && verdict.kept ? 'kept' : verdict.kind;
  t.operator({
    step,
    instruction,
    verdict: kind,
    ...(plan.expect ? { expected: plan.expect.final } : {}),
    ...(obs?.finalByPoll ? { final: obs.finalByPoll } : {}),
  });
  if (verdict.kind === 'skip') t.skip(`skipped by the operator at: ${instruction}`);
  if (verdict.kind === 'redo') throw new OperatorRedo(`redone by the operator after: ${instruction}`);
  if (verdict.kind === 'abort') throw new OperatorAbort(instruction);
  return obs!;
}

/** Fetches the print slip and checks it agrees with the configuration. */
export async function slipOf(t: ScenarioContext, p: Pairing, id: string) {
  const res = await t.scope.call(p, 'getPrintSlip', { params: { transaction_id: id } });
  if (res.status === 200 && typeof res.body === 'object' && res.body !== null && !Array.isArray(res.body)) {
    // Whose slip it is: the path's transaction, the paired terminal (spec).
    const slip = res.body as Record<string, unknown>;
    t.scope.check('print-slip.transaction-id', { expected: id, answer: slip });
    t.scope.check('print-slip.terminal-id', { expected: p.credentials.terminal_id, answer: slip });
  }
  if (res.status === 200) {
    const cfg = await config(t, p);
    if (cfg) t.scope.check('print-slip.matches-config', { slip: res.body as Record<string, unknown>, config: cfg });
  }
  return res;
}

const configs = new WeakMap<Pairing, Record<string, unknown>>();

/** The pairing's configuration (read once). */
export async function config(t: ScenarioContext, p: Pairing): Promise<Record<string, unknown> | undefined> {
  const hit = configs.get(p);
  if (hit) return hit;
  const res = await t.scope.call(p, 'getConfig');
  if (res.status !== 200 || typeof res.body !== 'object' || res.body === null) return undefined;
  configs.set(p, res.body as Record<string, unknown>);
  return res.body as Record<string, unknown>;
}
