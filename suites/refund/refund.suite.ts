import { describe } from 'vitest';
import type { Pairing, Plan } from '../../src/index.ts';
import { planFor, settle } from '../_setup/steps/flows.ts';
import { freshClientTransactionId } from '../_setup/steps/client-transaction-id.ts';
import { type ScenarioContext, scenario } from '../../src/suite.ts';
import {
  afterCancel,
  amountFor,
  baseAmount,
  begin,
  callIdle,
  cancelJudged,
  createdId,
  heldInitiated,
  isAuto,
  isFinal,
  isRec,
  planOf,
  readStatus,
  release,
  sendable,
  settleAs,
  slipChecked,
  underPact,
  waitForStatus,
} from '../_setup/steps/payment.ts';

const capability = 'refund';
const rules = { capability, clause: 'profile#rules-of-behaviour' };
const sandboxRefund = { capability, clause: 'sandbox#revert-and-refund' };

/** A payment converged to its end; its final status and record. */
async function pay(t: ScenarioContext, p: Pairing, plan: Plan) {
  const { id } = await begin(t, p, 'generateTransaction', { amount: plan.amount });
  const obs = await settle(t, p, id, plan);
  const final = t.scope.need(obs.finalByPoll, `payment ${id} did not reach a final status`);
  return { id, final, record: obs.last };
}

/** The part of a transaction not yet refunded, by its record. */
function remainder(record: Record<string, unknown> | undefined, fallback: number): number {
  if (!record) return fallback;
  const n = (k: string) => (typeof record[k] === 'number' ? (record[k] as number) : 0);
  return (typeof record.amount === 'number' ? record.amount : fallback) + n('tip_amount') - n('refund_total_amount');
}

/** A linked refund that must be refused; a wrongly started one is run to its end. */
async function refusedRefund(t: ScenarioContext, p: Pairing, id: string, amount: number, left: number) {
  if (!sendable(t, amount)) return t.param(`refund probe of ${amount}`, 'not sent: above --max-amount');
  const res = await callIdle(t, p, 'linkedRefund', { amount }, { transaction_id: id });
  t.scope.check('refund.within-remainder', { remainder: left, exchange: res.exchange });
  const started = createdId(res);
  if (started) {
    await t.scope.converge(p, 'transaction', started);
    await release(t, p, started);
  }
}

describe('refund', () => {
  // sandbox.md, Transactions: "One transaction at a time per terminal: generate, preauth or a refund
  // while another transaction of the same terminal is INITIATED or IN_PROGRESS answers 409." Generate's
  // 409 is the payment suite's; here the other three, each on a terminal held INITIATED (55, offline).
  scenario(
    'a preauthorization, a linked refund and an independent refund while a transaction is pending answer 409',
    {
      ...sandboxRefund,
      clause: 'sandbox#transactions',
      needs: {
        stateful:
          'a transaction INITIATED while three more are refused 409, then CANCELED, is a sequence of states; a stateless mock gives one fixed answer per request',
        terminal: {
          modes: ['auto'],
          why: 'only --terminal auto can hold the terminal INITIATED (55, offline) while the requests are made',
        },
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      // A linked refund is judged busy only of a transaction it could otherwise refund: a SUCCESS.
      const paid = await pay(t, p, amountFor(t, 'approve', baseAmount(t)));
      if (paid.final !== 'SUCCESS') t.skip(`the payment to refund ended ${paid.final}; a linked refund needs a SUCCESS`);
      const plan = planFor(t, 'offline');
      let pending: string | undefined;
      const started: string[] = [];
      try {
        pending = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        const before = await heldInitiated(t, p, pending, plan.amount);
        const requests = [
          { op: 'startPreauth', body: { amount: baseAmount(t, 2) } },
          { op: 'linkedRefund', body: { amount: 100 }, params: { transaction_id: paid.id } },
          { op: 'independentRefund', body: { amount: baseAmount(t, 3) } },
        ] as const;
        const answers = [];
        for (const r of requests) {
          const res = await t.scope.call(p, r.op, { body: r.body, ...('params' in r ? { params: r.params } : {}) });
          answers.push(res);
          const id = createdId(res);
          if (id) started.push(id);
        }
        const after = await readStatus(t, p, pending);
        // Only when the held transaction was pending on both sides of the requests is a 409 required.
        const pendingThroughout =
          before.status !== undefined && !isFinal(t, before.status) && after.status !== undefined && !isFinal(t, after.status);
        t.param('pending throughout', String(pendingThroughout));
        if (pendingThroughout) for (const res of answers) t.scope.check('sandbox.busy', res.exchange);
        const canceled = afterCancel(await cancelJudged(t, p, pending));
        const obs = await settleAs(t, p, pending, plan.amount, canceled, 'canceled offline amount');
        t.scope.need(obs.finalByPoll, 'the held transaction did not reach a final status after the cancel');
        // Wrongly accepted: each runs to its end before the next scenario uses the terminal.
        for (const id of started) await t.scope.converge(p, 'transaction', id);
        if (!pendingThroughout)
          t.skip(`the held transaction was final (${before.status} / ${after.status}) before the requests could be judged`);
      } finally {
        await release(t, p, pending);
        for (const id of started) await release(t, p, id);
      }
    },
  );

  scenario(
    'revert: only the most recent SUCCESS; it ends REVERTED with reverted_at',
    {
      ...rules,
      operator: ['approve', 'approve'],
      needs: {
        stateful:
          'two payments, a revert refused for the older, then the latest SUCCESS turned REVERTED is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const older = await pay(t, p, amountFor(t, 'approve', baseAmount(t)));
      const latest = await pay(t, p, amountFor(t, 'approve', baseAmount(t, 1)));
      if (older.final !== 'SUCCESS' || latest.final !== 'SUCCESS')
        t.skip(`needs two SUCCESS payments, got ${older.final} and ${latest.final}`);
      const refused = await t.scope.call(p, 'revertTransaction', { params: { transaction_id: older.id } });
      t.scope.check('revert.latest-only', refused.exchange);
      const wrongOp = isRec(refused.body) && typeof refused.body.operation_id === 'string' ? refused.body.operation_id : undefined;
      if (refused.status === 200 && wrongOp) await t.scope.converge(p, 'operation', wrongOp);

      const res = await t.scope.call(p, 'revertTransaction', { params: { transaction_id: latest.id } });
      const opId = t.scope.idFrom(res, 'operation_id', 'revert of the most recent SUCCESS');
      const op = await t.scope.converge(p, 'operation', opId);
      t.scope.check('operation.record-matches', {
        transactionId: latest.id,
        type: 'transaction.revert',
        reference: isRec(res.body) ? res.body : undefined,
        record: op.last,
      });
      if (isAuto(t))
        t.scope.check('sandbox.operation-outcome', {
          type: 'transaction.revert',
          expected: ['SUCCESS'],
          actual: op.finalByPoll,
          why: 'revert of the most recent SUCCESS, no amount: the "anything else" row',
        });
      if (op.finalByPoll !== 'SUCCESS')
        t.skip(`the revert operation ended ${op.finalByPoll ?? 'nowhere'}; nothing to check on the transaction`);
      const now = await waitForStatus(t, p, latest.id, (s) => s !== 'SUCCESS', 20, { pastFinal: true });
      const slip = await slipChecked(t, p, latest.id, { finalByPoll: now.status, last: now.record });
      t.scope.check('revert.reverted', { record: now.record, slip });
    },
  );

  // The refund runs through the terminal like a payment: a second card step.
  scenario(
    'linked refund: at most the unrefunded remainder, grows refund_total_amount, tagged refund',
    {
      ...rules,
      operator: ['approve', 'approve'],
      needs: {
        stateful:
          'refund_total_amount growing with each refund, and the remainder it leaves refused, is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'approve');
      const original = await pay(t, p, plan);
      if (original.final !== 'SUCCESS')
        t.skip(`the payment ended ${original.final}; a linked refund needs a SUCCESS (see the success-only scenario)`);
      let left = remainder(original.record, plan.amount);
      let record = original.record;
      await refusedRefund(t, p, original.id, left + 100, left);
      // Two partial refunds that together refund everything, then one cent too many.
      const first = Math.max(100, Math.floor(left / 200) * 100);
      for (const amount of [first, left - first]) {
        if (amount <= 0) continue;
        const { id } = await begin(t, p, 'linkedRefund', { amount }, { transaction_id: original.id });
        const obs = await settle(t, p, id, planOf(t, amount), 'refund amount');
        t.scope.check('refund.tagged', { linked: true, where: 'status record', record: obs.last });
        const slip = await slipChecked(t, p, id, obs);
        if (slip) t.scope.check('refund.tagged', { linked: true, where: 'print slip', record: slip });
        const after = await readStatus(t, p, original.id);
        t.scope.check('refund.total-grows', {
          before: record?.refund_total_amount ?? 0,
          after: after.record?.refund_total_amount,
          refundAmount: amount,
          refundStatus: obs.finalByPoll,
        });
        record = after.record ?? record;
        left = remainder(record, left);
        if (left > 0) await refusedRefund(t, p, original.id, left + 1, left);
      }
      if (left === 0) await refusedRefund(t, p, original.id, 1, 0);
      t.param('left unrefunded', left);
    },
  );

  scenario(
    'linked refund of a transaction that is not SUCCESS answers 400',
    { ...rules, needs: { terminal: { modes: ['auto'], why: 'only --terminal auto can make the terminal decline' } } },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'decline');
      const declined = await pay(t, p, plan);
      if (declined.final === 'SUCCESS') t.skip('the payment was approved after all (flagged by sandbox.outcome)');
      const res = await callIdle(t, p, 'linkedRefund', { amount: 100 }, { transaction_id: declined.id });
      t.scope.check('refund.success-only', res.exchange, { original: declined.final });
      const started = createdId(res);
      if (started) {
        await t.scope.converge(p, 'transaction', started);
        await release(t, p, started);
      }
    },
  );

  scenario('independent refund: a new transaction tagged refund', { ...sandboxRefund, operator: ['approve'] }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const plan = planFor(t, 'approve');
    // Against the Pact mock: the client_transaction_id its status record of the refund echoes.
    const ctid = underPact(t) ? 'order-refund' : freshClientTransactionId('refund', t.harness.ctx);
    const { id } = await begin(t, p, 'independentRefund', { amount: plan.amount, client_transaction_id: ctid });
    const obs = await settle(t, p, id, plan, 'refund amount');
    t.scope.need(obs.finalByPoll, 'the refund did not reach a final status');
    t.scope.check('refund.tagged', { linked: false, where: 'status record', record: obs.last });
    t.scope.check('sandbox.client-transaction-id', { sent: ctid, record: obs.last });
    const slip = await slipChecked(t, p, id, obs);
    if (slip) t.scope.check('refund.tagged', { linked: false, where: 'print slip', record: slip });
  });
});
