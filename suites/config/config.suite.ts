/**
 * Configuration: the record itself (its schema is checked automatically), the sandbox's payment
 * methods (CARD among them) and values, and the payment methods' ids as values of generate's
 * `payment_method`: each configured id is accepted, an id not among them is refused. (The agreement
 * of print slips with the configuration's currency and timezone is checked by flows.slipOf.)
 */
import { describe } from 'vitest';
import type { Pairing, PayConnectResponse } from '../../src/index.ts';
import { planFor, settle, slipOf } from '../_setup/steps/flows.ts';
import { freshClientTransactionId } from '../_setup/steps/client-transaction-id.ts';
import { scenario, type ScenarioContext } from '../../src/suite.ts';
import { undoStartedTransaction } from '../_setup/steps/pairing.ts';

const capability = 'config';

/** GET /v1/pay-connect/config/ in this test (recorded, so the schema checks run here). */
async function readConfig(t: ScenarioContext, p: Pairing): Promise<Record<string, unknown>> {
  const res = await t.scope.call(p, 'getConfig');
  t.scope.check('request.accepted', res.exchange);
  const body = res.body;
  return t.scope.need(
    res.status === 200 && typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined,
    `the configuration answered ${res.status}`,
  );
}

/** The ids of the configured payment methods (strings only). */
function methodIds(cfg: Record<string, unknown>): string[] {
  const list = Array.isArray(cfg.payment_methods) ? cfg.payment_methods : [];
  return [
    ...new Set(list.map((m) => (m as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string' && id !== '')),
  ];
}

describe('config', () => {
  scenario(
    'the configuration: fields, payment methods with CARD, the sandbox values',
    { capability, clause: 'spec#configuration' },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const cfg = await readConfig(t, p);
      t.scope.check('config.payment-methods', { config: cfg });
      t.scope.check('config.sandbox-values', { config: cfg });
      t.scope.check('pairing.terminal-matches-config', { pairingTerminalId: p.credentials.terminal_id, configTerminalId: cfg.terminal_id });
      t.param('payment_methods', methodIds(cfg).join(', '));
    },
  );

  scenario(
    "each configured payment method's id is accepted as generate's payment_method",
    { capability, clause: 'sandbox#configuration', timeout: 300_000 },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const ids = methodIds(await readConfig(t, p));
      t.scope.need(ids.length > 0, 'the configuration lists no payment method ids');
      t.param('payment_methods', ids.join(', '));
      for (const method of ids) {
        if (t.harness.ctx.terminal === 'auto') {
          // The sandbox pays with each method: approve, then the record and slip carry the method.
          const plan = planFor(t, 'approve');
          const res = await t.scope.call(p, 'generateTransaction', {
            body: {
              amount: plan.amount,
              payment_method: method,
              client_transaction_id: freshClientTransactionId(`method-${method}`, t.harness.ctx),
            },
          });
          // A refused method is a sandbox deviation, reported by its own check: nothing to follow.
          if (!t.scope.check('config.payment-method-accepted', res.exchange)) continue;
          const id = t.scope.idFrom(res, 'transaction_id', `generate with payment_method ${method}`);
          const obs = await settle(t, p, id, plan, `amount (payment_method ${method})`);
          t.scope.check('config.payment-method-applied', { requested: method, record: obs.last });
          if (obs.finalByPoll) await slipOf(t, p, id);
        } else {
          // A real terminal: the id is accepted; the transaction is canceled at once.
          const plan = planFor(t, 'approve');
          const res = await t.scope.call(p, 'generateTransaction', {
            body: {
              amount: plan.amount,
              payment_method: method,
              client_transaction_id: freshClientTransactionId(`method-${method}`, t.harness.ctx),
            },
          });
          // A refused method is a sandbox deviation, reported by its own check: nothing to follow.
          if (!t.scope.check('config.payment-method-accepted', res.exchange)) continue;
          const id = t.scope.idFrom(res, 'transaction_id', `generate with payment_method ${method}`);
          await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
          // Its settle window runs on behind the next method's request (nothing here judges the final status).
          await t.scope.converge(p, 'transaction', id, { background: true });
        }
      }
    },
  );

  scenario(
    "a payment_method that is not among the configuration's is refused with 400",
    { capability, clause: 'sandbox#configuration' },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const ids = methodIds(await readConfig(t, p));
      let unknown = 'PCC_NO_SUCH_METHOD';
      while (ids.includes(unknown)) unknown += '_X';
      t.param('payment_method', unknown);
      // An amount that is valid, so only the payment method can be the reason for a refusal.
      const plan = t.terminal.plan(t.harness.ctx.terminal === 'auto' ? 'offline' : 'approve', 1000);
      const amount = typeof plan === 'string' ? 100 : plan.amount;
      const res: PayConnectResponse = await t.scope.call(p, 'generateTransaction', {
        body: { amount, payment_method: unknown, client_transaction_id: `pcc-bad-method-${t.harness.ctx.seed}` },
      });
      t.scope.check('config.unknown-payment-method-refused', res.exchange);
      await undoStartedTransaction(t, res, [p]);
    },
  );
});
