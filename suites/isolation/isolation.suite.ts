/**
 * Isolation: a second pairing cannot read the first pairing's transaction status, print slip or
 * operation, nor cancel its transaction; and ids that name nothing answer 404.
 *
 * The first pairing's transaction is an approved payment (it ends within a second on the sandbox),
 * converged and then reverted, which gives an operation too. A foreign id answered with a 2xx is a
 * leak (`isolation.foreign-id`: sandbox.md, Isolation, the only document that states it); any refusal is then held to the sandbox's exact 404
 * (`isolation.not-found`). A 5xx leaks nothing: it is judged by the 404 rule only, so a service that
 * answers 500 for every unknown id gets only the 404 rule's warning.
 *
 * The setup runs alone; the others then run on every lane of the worker at once. On a lane other
 * than the setup's, the first pairing is that lane's client of it, and the second pairing is that
 * lane's own (any pairing but the first is a second one).
 */
import { describe } from 'vitest';
import type { OperationId, Pairing, PayConnectResponse } from '../../src/index.ts';
import { planFor, settle, slipOf, start } from '../_setup/steps/flows.ts';
import { freshClientTransactionId } from '../_setup/steps/client-transaction-id.ts';
import { scenario, type ScenarioContext } from '../../src/suite.ts';
import { stringField, unknownId } from '../_setup/steps/pairing.ts';

const capability = 'isolation';

type Harness = ScenarioContext['harness'];

/** What the setup made, on the lane it ran on (`by`). */
const first: { p?: Pairing; by?: Harness; txn?: string; op?: string; why?: string } = {};
/** The first pairing as each other lane uses it: a client of that lane (Harness.adopt). */
const firstOnLane = new Map<Harness, Pairing>();

/** Why the pairings' scenarios skip against the Pact mock. */
const ONE_PAIRING =
  "needs a second pairing; the pact's provider state is one paired terminal, and a stateless mock answers the same whoever asks";

/** The scenarios that ask with a second pairing about the first one's records. */
const foreign = { capability, clause: 'spec#what-the-service-does', needs: { stateful: ONE_PAIRING } };

/**
 * A second pairing, or skips: on the setup's lane its second pairing, on another lane that lane's own
 * (a pairing of another terminal all the same, and no OTP spent on it).
 */
async function second(t: ScenarioContext): Promise<Pairing> {
  if (first.by !== undefined && first.by !== t.harness) return t.harness.primary(t.scope);
  const q = await t.harness.another(t.scope);
  if (typeof q === 'string') t.skip(q);
  return q;
}

/**
 * The first pairing's transaction (and operation), or skips with the reason the setup gave. The
 * pairing is the lane's client of it: what a test sends is recorded in that test.
 */
function firstTxn(t: ScenarioContext): { p: Pairing; txn: string } {
  if (!first.p || !first.by || !first.txn) t.skip(first.why ?? "the first pairing's transaction was not made");
  let p = first.by === t.harness ? first.p : firstOnLane.get(t.harness);
  // A copy of another pairing than the first one now (the setup ran again, on a new pairing) is not it.
  if (p?.credentials.client_id !== first.p.credentials.client_id) firstOnLane.set(t.harness, (p = t.harness.adopt(first.p)));
  return { p, txn: first.txn };
}

/** Judges the second pairing's answer for the first pairing's id. */
function judgeForeign(t: ScenarioContext, res: PayConnectResponse): void {
  const s = res.status;
  if (s < 500) t.scope.check('isolation.foreign-id', res.exchange);
  if (s < 200 || s >= 300) t.scope.check('isolation.not-found', res.exchange);
}

// The first test makes what the others probe, alone; the others then run on every lane at once.
describe('isolation', () => {
  scenario(
    "the first pairing's transaction and operation to probe",
    { capability, clause: 'sandbox#isolation', operator: ['approve'], needs: { stateful: ONE_PAIRING }, sequential: true },
    async (t) => {
      first.why = 'the setup test did not finish';
      const q = await t.harness.another(t.scope);
      if (typeof q === 'string') {
        first.why = q;
        t.skip(q);
      }
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'approve');
      const { id } = await start(t, p, 'generateTransaction', {
        amount: plan.amount,
        client_transaction_id: freshClientTransactionId('isolation', t.harness.ctx),
      });
      const obs = await settle(t, p, id, plan);
      t.scope.need(obs.finalByPoll, `transaction ${id} did not reach a final status`);
      first.p = p;
      first.by = t.harness;
      first.txn = id;
      await slipOf(t, p, id);
      if (obs.finalByPoll !== 'SUCCESS') {
        first.why = `the transaction ended ${obs.finalByPoll}, so there is no operation to probe`;
        return;
      }
      // Revert (the most recent SUCCESS of the terminal) gives an operation of the first pairing.
      const rev = await t.scope.call(p, 'revertTransaction', { params: { transaction_id: id } });
      const op = stringField(rev, 'operation_id');
      if (!op) {
        first.why = `revert answered ${rev.status} without an operation_id, so there is no operation to probe`;
        return;
      }
      await t.scope.converge(p, 'operation', op);
      first.op = op;
    },
  );

  scenario("the second pairing cannot read the first's transaction status", foreign, async (t) => {
    const { p, txn } = firstTxn(t);
    const q = await second(t);
    const own = await t.scope.call(p, 'getTransactionStatus', { params: { transaction_id: txn } });
    t.scope.check('request.accepted', own.exchange);
    judgeForeign(t, await t.scope.call(q, 'getTransactionStatus', { params: { transaction_id: txn } }));
  });

  scenario("the second pairing cannot read the first's print slip", foreign, async (t) => {
    const { txn } = firstTxn(t);
    const q = await second(t);
    judgeForeign(t, await t.scope.call(q, 'getPrintSlip', { params: { transaction_id: txn } }));
  });

  scenario("the second pairing cannot read the first's operation", foreign, async (t) => {
    const { p } = firstTxn(t);
    const op = first.op;
    if (!op) return t.skip(first.why ?? 'no operation of the first pairing');
    const q = await second(t);
    const own = await t.scope.call(p, 'getOperation', { params: { operation_id: op } });
    t.scope.check('request.accepted', own.exchange);
    judgeForeign(t, await t.scope.call(q, 'getOperation', { params: { operation_id: op } }));
  });

  scenario("the second pairing cannot cancel the first's transaction", foreign, async (t) => {
    const { p, txn } = firstTxn(t);
    const q = await second(t);
    const before = (await t.scope.call(p, 'getTransactionStatus', { params: { transaction_id: txn } })).body as
      Record<string, unknown> | undefined;
    judgeForeign(t, await t.scope.call(q, 'cancelTransaction', { params: { transaction_id: txn } }));
    const after = await t.scope.call(p, 'getTransactionStatus', { params: { transaction_id: txn } });
    t.param('status', `${String(before?.status)} -> ${String((after.body as Record<string, unknown> | undefined)?.status)}`);
  });

  // Ids that name nothing, on every operation with an id in its path (harmless even if accepted).
  const byId: [OperationId, string, Record<string, unknown> | undefined][] = [
    ['getTransactionStatus', 'transaction_id', undefined],
    ['getPrintSlip', 'transaction_id', undefined],
    ['cancelTransaction', 'transaction_id', undefined],
    ['linkedRefund', 'transaction_id', { amount: 100 }],
    ['preauthIncrement', 'transaction_id', { amount: 100 }],
    ['preauthComplete', 'transaction_id', { amount: 100 }],
    ['revertTransaction', 'transaction_id', undefined],
    ['getOperation', 'operation_id', undefined],
  ];
  for (const [operationId, param, body] of byId) {
    scenario(`an unknown id answers 404: ${operationId}`, { capability, clause: 'sandbox#errors' }, async (t) => {
      const p = await t.harness.primary(t.scope);
      const id = unknownId(t);
      t.param(param, id);
      const res = await t.scope.call(p, operationId, { params: { [param]: id }, body });
      t.scope.check('errors.unknown-id', res.exchange);
    });
  }
});
