import { describe } from 'vitest';
import { planFor, settle } from '../_setup/steps/flows.ts';
import { scenario } from '../../src/suite.ts';
import { begin, isAuto, readStatus, sendable, slipChecked, unknownId } from '../_setup/steps/payment.ts';
import { completeAndCheck, operate, preauthorize } from './operations.ts';

const capability = 'preauth';
const rules = { capability, clause: 'sandbox#preauthorization' };
const increment = { capability, clause: 'spec#post-v1pay-connecttransaction-operationstransaction_idpreauth-increment' };
const complete = { capability, clause: 'spec#post-v1pay-connecttransaction-operationstransaction_idpreauth-complete' };
/** The scenarios that start an authorization: one card step at the terminal. */
const card = { operator: ['approve' as const] };

describe('preauth', () => {
  scenario(
    'increment (success, 51 FAILED, 53 EXPIRED) then complete with the exact sum',
    {
      ...increment,
      ...card,
      needs: {
        stateful:
          'an authorization whose operations end one by one and whose record then carries the completed amount is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const a = await preauthorize(t);
      let authorized = a.amount;
      const ok = await operate(t, a, 'preauthIncrement', 200);
      if (ok === 'SUCCESS') authorized += 200;
      if (isAuto(t)) {
        // The table on the operation's own amount: failed and expired increments authorize nothing more.
        await operate(t, a, 'preauthIncrement', 151);
        await operate(t, a, 'preauthIncrement', 153);
      }
      t.param('authorized', authorized);
      await completeAndCheck(t, a, authorized);
    },
  );

  scenario(
    'complete above the authorized amount fails; the authorization stays completable',
    {
      ...complete,
      ...card,
      needs: {
        stateful:
          'a complete that fails, then one that succeeds, on the same authorization is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const a = await preauthorize(t);
      await operate(t, a, 'preauthComplete', a.amount + 100, { rule: 'complete above the authorized amount ends FAILED' });
      await completeAndCheck(t, a, a.amount);
    },
  );

  scenario(
    'after completion, increment and complete answer 200 and their operations fail',
    {
      ...rules,
      ...card,
      needs: {
        stateful:
          'an authorization completed, then operations on it that fail is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const a = await preauthorize(t);
      const done = await completeAndCheck(t, a, a.amount);
      if (done !== 'SUCCESS') t.skip(`the complete ended ${done ?? 'nowhere'}; the rule needs a completed preauthorization`);
      const rule = 'once completed, any further increment or complete ends FAILED';
      // The spec: a transaction already completed is not refused by the request; the failure shows in the later status.
      await operate(t, a, 'preauthIncrement', 100, { rule });
      await operate(t, a, 'preauthComplete', a.amount, { rule });
      const after = await readStatus(t, a.p, a.id);
      t.scope.check('preauth.completed-amount', { completed: a.amount, record: after.record });
    },
  );

  scenario('increment and complete of a plain charge answer 400', { ...rules, ...card }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const plan = planFor(t, 'approve');
    const { id } = await begin(t, p, 'generateTransaction', { amount: plan.amount });
    const obs = await settle(t, p, id, plan);
    t.scope.need(obs.finalByPoll, 'the charge did not reach a final status');
    for (const op of ['preauthIncrement', 'preauthComplete'] as const) {
      const amount = op === 'preauthIncrement' ? 100 : plan.amount;
      if (!sendable(t, amount)) continue;
      const res = await t.scope.call(p, op, { params: { transaction_id: id }, body: { amount } });
      t.scope.check('preauth.authorized-only', res.exchange, { operation: op, transaction: 'plain charge' });
    }
  });

  scenario(
    'a declined preauthorization (51) cannot be incremented or completed',
    { ...rules, needs: { terminal: { modes: ['auto'], why: 'only --terminal auto can make the terminal decline' } } },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'decline');
      const { id } = await begin(t, p, 'startPreauth', { amount: plan.amount });
      const obs = await settle(t, p, id, plan, 'preauthorization amount');
      t.scope.need(obs.finalByPoll, 'the preauthorization did not reach a final status');
      if (obs.finalByPoll === 'SUCCESS') t.skip('the preauthorization was authorized after all (flagged by sandbox.outcome)');
      for (const op of ['preauthIncrement', 'preauthComplete'] as const) {
        const res = await t.scope.call(p, op, { params: { transaction_id: id }, body: { amount: 100 } });
        t.scope.check('preauth.authorized-only', res.exchange, { operation: op, transaction: `preauthorization ${obs.finalByPoll}` });
      }
      await slipChecked(t, p, id, obs);
    },
  );

  scenario('details of an unknown operation id answer 404', { capability, clause: 'sandbox#errors' }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const res = await t.scope.call(p, 'getOperation', { params: { operation_id: unknownId() } });
    t.scope.check('errors.unknown-id', res.exchange);
  });
});
