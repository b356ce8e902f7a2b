/**
 * Preauthorization building blocks: authorize, run one operation to its end and judge its outcome
 * (sandbox.md: 51 FAILED, 53 EXPIRED, else SUCCESS, with the rules on top), complete and check the
 * completed amount on the status record and the print slip.
 */
import type { Pairing } from '../../src/index.ts';
import { planFor, settle } from '../_setup/steps/flows.ts';
import { freshClientTransactionId } from '../_setup/steps/client-transaction-id.ts';
import type { ScenarioContext } from '../../src/suite.ts';
import { begin, isAuto, isRec, needSendable, readStatus, sendable, slipChecked } from '../_setup/steps/payment.ts';

/** An authorized preauthorization. */
export interface Authorization {
  p: Pairing;
  id: string;
  /** The original (authorized) amount. */
  amount: number;
}

const TYPES = { preauthIncrement: 'transaction.preauth.increment', preauthComplete: 'transaction.preauth.complete' } as const;

/** Starts a preauthorization and converges it; skips (after checking the refusal) when it is not authorized. */
export async function preauthorize(t: ScenarioContext): Promise<Authorization> {
  const p = await t.harness.primary(t.scope);
  const plan = planFor(t, 'approve');
  const { id } = await begin(t, p, 'startPreauth', {
    amount: plan.amount,
    client_transaction_id: freshClientTransactionId('preauth', t.harness.ctx),
  });
  const obs = await settle(t, p, id, plan, 'preauthorization amount');
  const final = t.scope.need(obs.finalByPoll, 'the preauthorization did not reach a final status');
  if (final !== 'SUCCESS') {
    // Not authorized (observe mode, or a deviation already flagged): the operations must be refused.
    if (sendable(t, 100)) {
      const res = await t.scope.call(p, 'preauthIncrement', { params: { transaction_id: id }, body: { amount: 100 } });
      t.scope.check('preauth.authorized-only', res.exchange, { transaction: `preauthorization ${final}` });
    }
    t.skip(`the preauthorization ended ${final}; the operations need an authorized one`);
  }
  return { p, id, amount: plan.amount };
}

/** What the sandbox expects of an operation, or undefined when nothing can be expected in this mode. */
function expectation(t: ScenarioContext, amount: number, rule?: string): { expected: string[]; why: string } | undefined {
  const row = ((amount % 100) + 100) % 100;
  if (isAuto(t)) {
    if (row === 51) return { expected: ['FAILED'], why: 'amount % 100 = 51' };
    if (row === 53) return { expected: ['EXPIRED'], why: 'amount % 100 = 53' };
    if (rule) return { expected: ['FAILED'], why: rule };
    return { expected: ['SUCCESS'], why: 'amount % 100 is neither 51 nor 53, and no rule makes it fail' };
  }
  // Outside auto mode the terminal decides, but no rule that makes an operation fail lets it succeed.
  return rule ? { expected: ['FAILED', 'EXPIRED'], why: `${rule}; any status but SUCCESS outside auto mode` } : undefined;
}

/** Runs increment or complete, converges the operation and judges its outcome; returns its final status. */
export async function operate(
  t: ScenarioContext,
  a: Authorization,
  op: keyof typeof TYPES,
  amount: number,
  opts: { rule?: string } = {},
): Promise<string | undefined> {
  // A non-200 answer (checked as request.accepted) stops the scenario: the spec answers 200 and shows
  // any failure on the terminal side, a completed transaction included, in the later status.
  needSendable(t, amount, `${op} of ${amount}`);
  const res = await t.scope.call(a.p, op, { params: { transaction_id: a.id }, body: { amount } });
  const opId = t.scope.idFrom(res, 'operation_id', op);
  // Judged on what was seen at the first final status; the settle window runs on behind the test's
  // next request (one naming this operation, another convergence of it, or the test's end wait for it).
  const obs = await t.scope.converge(a.p, 'operation', opId, { background: true });
  // The reference's transaction is the spec's rule; the record's fields are the profile's.
  t.scope.check('operation.reference-transaction-id', { expected: a.id, ...(isRec(res.body) ? { answer: res.body } : {}) });
  t.scope.check('operation.record-matches', { transactionId: a.id, type: TYPES[op], record: obs.last });
  const e = expectation(t, amount, opts.rule);
  if (e) t.scope.check('sandbox.operation-outcome', { type: TYPES[op], amount, expected: e.expected, actual: obs.finalByPoll, why: e.why });
  return obs.finalByPoll;
}

/**
 * Completes with `amount` (expected to succeed unless a rule says otherwise) and, when it succeeded,
 * checks the transaction's amount on the status record and the print slip.
 */
export async function completeAndCheck(t: ScenarioContext, a: Authorization, amount: number): Promise<string | undefined> {
  const final = await operate(t, a, 'preauthComplete', amount);
  if (final !== 'SUCCESS') return final;
  const now = await readStatus(t, a.p, a.id);
  const slip = await slipChecked(t, a.p, a.id, { finalByPoll: now.status, last: now.record });
  t.scope.check('preauth.completed-amount', { completed: amount, record: now.record, slip });
  return final;
}
