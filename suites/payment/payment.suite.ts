import { describe } from 'vitest';
import { AMOUNT_BASIS, type InvalidBasis, PAYMENT_METHOD_BASIS } from '../../src/arbitraries/index.ts';
import { INVALID_GENERATE_BODIES } from '../../src/index.ts';
import { config, planFor, settle } from '../_setup/steps/flows.ts';
import { skipAheadOnSim } from '../_setup/steps/clock.ts';
import { freshClientTransactionId } from '../_setup/steps/client-transaction-id.ts';
import { NOT_MANUAL, scenario } from '../../src/suite.ts';
import {
  afterCancel,
  baseAmount,
  begin,
  callIdle,
  cancelJudged,
  createdId,
  heldInitiated,
  isAuto,
  isFinal,
  isRec,
  pactClientTransactionId,
  readStatus,
  release,
  settleAs,
  slipChecked,
  unknownId,
} from '../_setup/steps/payment.ts';

const table = { capability: 'payment', clause: 'sandbox#transactions' };

describe('payment', () => {
  // sandbox.md, Transactions: 55 "stays INITIATED until canceled or expired", final "CANCELED after a
  // cancel, else EXPIRED"; "A transaction left waiting reaches EXPIRED at the sandbox's deadline." Left
  // alone, it shows INITIATED -> EXPIRED, a transition no other scenario waits for on purpose.
  // Declared first: it waits out the deadline (2.5 s against the sandbox's 100 ms steps) while the
  // worker's other terminals take the rest; declared among them it started late and ended the file alone.
  scenario(
    'a transaction left INITIATED (55, terminal offline) reaches EXPIRED at the deadline',
    {
      ...table,
      needs: {
        stateful:
          'a transaction INITIATED, then EXPIRED at the deadline, is a sequence of states; a stateless mock gives one fixed answer per request',
        terminal: { modes: ['auto'], why: 'only --terminal auto can keep the terminal offline by amount' },
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'offline');
      let id: string | undefined;
      try {
        id = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        await heldInitiated(t, p, id, plan.amount);
        // On the embedded simulator its terminal's clock is skipped to the deadline, not waited for.
        const ahead = await skipAheadOnSim(t.harness.ctx, id);
        const obs = await settleAs(t, p, id, plan.amount, 'EXPIRED', 'offline amount left alone', ahead);
        t.scope.need(obs.finalByPoll, 'the transaction left waiting did not reach a final status');
        await slipChecked(t, p, id, obs);
      } finally {
        await release(t, p, id);
      }
    },
  );

  // The outcome table of sandbox.md, left alone (no cancel): converge by polling and webhook, then the slip.
  // The decline variant is declared last (below): a manual session then changes cards fewer times.
  const outcome = (want: 'approve' | 'decline' | 'fail' | 'expire' | 'tip') =>
    scenario(`generate and converge: ${want}`, { ...table, operator: [want] }, async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, want);
      const ctid = pactClientTransactionId(t, want, freshClientTransactionId(want, t.harness.ctx));
      const { id } = await begin(t, p, 'generateTransaction', { amount: plan.amount, client_transaction_id: ctid });
      const obs = await settle(t, p, id, plan);
      t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
      t.scope.check('sandbox.client-transaction-id', { sent: ctid, record: obs.last });
      await slipChecked(t, p, id, obs);
    });
  for (const want of ['approve', 'fail', 'expire', 'tip'] as const) outcome(want);

  scenario(
    'generate with a payment_method of the configuration: the record keeps it',
    { capability: 'payment', clause: 'sandbox#configuration', operator: ['approve'] },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const cfg = await config(t, p);
      const ids = (Array.isArray(cfg?.payment_methods) ? cfg.payment_methods : [])
        .map((m) => (isRec(m) ? m.id : undefined))
        .filter((x): x is string => typeof x === 'string' && x !== '');
      // In auto mode a method other than the virtual customer's own pick (CARD) shows that the one sent is used.
      const method = isAuto(t) ? (ids.find((m) => m !== 'CARD') ?? ids[0]) : ids.includes('CARD') ? 'CARD' : ids[0];
      if (method === undefined) return t.skip('the configuration lists no payment method to send');
      t.param('payment_method', method);
      const plan = planFor(t, 'approve');
      const { id } = await begin(t, p, 'generateTransaction', { amount: plan.amount, payment_method: method });
      const obs = await settle(t, p, id, plan);
      t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
      t.scope.check('sandbox.payment-method', { sent: method, record: obs.last });
      await slipChecked(t, p, id, obs);
    },
  );

  scenario(
    'generate without payment_method: the virtual customer picks CARD',
    { capability: 'payment', clause: 'sandbox#configuration', operator: ['approve'] },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'approve');
      const { id } = await begin(t, p, 'generateTransaction', { amount: plan.amount });
      const obs = await settle(t, p, id, plan);
      t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
      // Outside auto mode a person (or a real customer) picks: any method is legal.
      t.scope.check('sandbox.payment-method', { expectedPick: isAuto(t) ? 'CARD' : undefined, record: obs.last });
      await slipChecked(t, p, id, obs);
    },
  );

  outcome('decline');

  scenario(
    'a second generate while a transaction is pending answers 409',
    {
      ...table,
      needs: {
        terminal: NOT_MANUAL,
        stateful:
          'a transaction INITIATED while a second generate is refused 409, then CANCELED, is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const auto = isAuto(t);
      // 55: the terminal is offline, the first transaction stays INITIATED until canceled.
      const plan = planFor(t, auto ? 'offline' : 'approve');
      let first: string | undefined;
      let second: string | undefined;
      try {
        first = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        const before = await readStatus(t, p, first);
        if (auto) t.scope.check('sandbox.waiting-status', { amount: plan.amount, expected: 'INITIATED', actual: before.status });
        const res = await t.scope.call(p, 'generateTransaction', { body: { amount: baseAmount(t, 1) } });
        second = createdId(res);
        const after = await readStatus(t, p, first);
        // Only when the first was pending on both sides of the second request is a 409 required.
        const pendingThroughout =
          before.status !== undefined && !isFinal(t, before.status) && after.status !== undefined && !isFinal(t, after.status);
        t.param('pending throughout', String(pendingThroughout));
        if (pendingThroughout) t.scope.check('sandbox.busy', res.exchange);
        const canceled = afterCancel(await cancelJudged(t, p, first));
        const obs = await settleAs(t, p, first, plan.amount, canceled, 'canceled offline amount');
        t.scope.need(obs.finalByPoll, 'the first transaction did not reach a final status after the cancel');
        if (second) await t.scope.converge(p, 'transaction', second);
        if (!pendingThroughout)
          t.skip(`the first transaction was final (${before.status} / ${after.status}) before the second request could be judged`);
      } finally {
        await release(t, p, first);
        await release(t, p, second);
      }
    },
  );

  // Each invalid body is its own test, so that every wrongly accepted one is reported. The bodies that
  // break the contract's GenerateRequest are shared with the pact's catalogue, which refuses each as
  // sent against the Pact mock; the last one is valid by the schema and refused by the configuration.
  // Each cites the sentence that makes it invalid: the amounts sandbox.md's Transactions, the payment
  // method its Configuration.
  const invalid: [string, (base: number) => Record<string, unknown>, InvalidBasis][] = [
    ...INVALID_GENERATE_BODIES.map(([what, body]): [string, (base: number) => Record<string, unknown>, InvalidBasis] => [
      what,
      body,
      AMOUNT_BASIS,
    ]),
    ['a payment_method not in the configuration', (base) => ({ amount: base, payment_method: 'PCC-NOT-A-METHOD' }), PAYMENT_METHOD_BASIS],
  ];
  for (const [what, body, because] of invalid) {
    scenario(`generate refuses ${what} with 400 and starts nothing`, table, async (t) => {
      const p = await t.harness.primary(t.scope);
      const res = await callIdle(t, p, 'generateTransaction', body(baseAmount(t)));
      t.scope.check('request.invalid-rejected', { exchange: res.exchange, because }, { probe: what });
      // Wrongly accepted: free the terminal for the next scenario.
      await release(t, p, createdId(res));
    });
  }

  scenario('status of an unknown transaction id answers 404', { capability: 'payment', clause: 'sandbox#errors' }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const res = await t.scope.call(p, 'getTransactionStatus', { params: { transaction_id: unknownId() } });
    t.scope.check('errors.unknown-id', res.exchange);
  });
});
