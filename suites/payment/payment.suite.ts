import { describe } from 'vitest';
import { planFor, settle, slipOf, start } from '../_setup/flows.ts';
import { scenario } from '../_setup/scenario.ts';

const info = { capability: 'payment', clause: 'spec#post-v1pay-connecttransactionsgenerate' };

describe('payment', () => {
  for (const want of ['approve', 'decline', 'fail', 'expire', 'tip'] as const) {
    scenario(`generate and converge: ${want}`, info, async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, want);
      const { id } = await start(t, p, 'generateTransaction', { amount: plan.amount, client_transaction_id: `pcc-${want}-${t.harness.ctx.seed}` });
      const obs = await settle(t, p, id, plan);
      t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
      await slipOf(t, p, id);
    });
  }
});
