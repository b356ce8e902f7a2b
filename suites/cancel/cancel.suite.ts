import { describe } from 'vitest';
import { planFor, settle } from '../_setup/steps/flows.ts';
import { NOT_MANUAL, scenario } from '../../src/suite.ts';
import {
  afterCancel,
  begin,
  cancelJudged,
  heldInitiated,
  isAuto,
  isFinal,
  readStatus,
  release,
  settleAs,
  slipChecked,
  unknownId,
  waitForStatus,
} from '../_setup/steps/payment.ts';

const cancelClause = { capability: 'cancel', clause: 'spec#post-v1pay-connecttransactionstransaction_idcancel' };
const table = { capability: 'cancel', clause: 'sandbox#transactions' };
const autoOnly = {
  modes: ['auto'],
  why: 'only --terminal auto can hold the terminal in a given state or make it refuse a cancel; the race scenario covers cancel in observe mode',
} as const;

describe('cancel', () => {
  scenario(
    'cancel while INITIATED (55, terminal offline) ends CANCELED',
    {
      ...table,
      needs: {
        stateful:
          'a transaction INITIATED, then CANCELED after the cancel is a sequence of states; a stateless mock gives one fixed answer per request',
        terminal: autoOnly,
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'offline');
      let id: string | undefined;
      try {
        id = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        await heldInitiated(t, p, id, plan.amount);
        const canceled = afterCancel(await cancelJudged(t, p, id));
        const obs = await settleAs(t, p, id, plan.amount, canceled, 'amount canceled while INITIATED');
        t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status after the cancel');
        await slipChecked(t, p, id, obs);
      } finally {
        await release(t, p, id);
      }
    },
  );

  // In manual mode the operator leaves the card prompt open while the harness cancels.
  scenario(
    'cancel while IN_PROGRESS (54, waits for a card) ends CANCELED',
    {
      ...table,
      operator: ['wait-in-progress'],
      needs: {
        stateful:
          'a transaction IN_PROGRESS, then CANCELED after the cancel is a sequence of states; a stateless mock gives one fixed answer per request',
        terminal: {
          modes: ['auto', 'manual'],
          why: 'in observe mode nothing holds the terminal at the card prompt; auto and manual mode run this',
        },
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'wait-in-progress');
      let id: string | undefined;
      try {
        id = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        const seen = await waitForStatus(t, p, id, (s) => s === 'IN_PROGRESS', 5);
        if (isAuto(t)) t.scope.check('sandbox.waiting-status', { amount: plan.amount, expected: 'IN_PROGRESS', actual: seen.status });
        else if (seen.status !== 'IN_PROGRESS')
          t.skip(`the terminal was ${seen.status ?? 'unknown'}, not waiting for a card, when the cancel was due`);
        const canceled = afterCancel(await cancelJudged(t, p, id));
        const obs = isAuto(t)
          ? await settleAs(t, p, id, plan.amount, canceled, 'amount canceled while IN_PROGRESS')
          : await settle(t, p, id, { ...plan, expect: { final: 'CANCELED', tip: 0 } }, 'amount canceled while IN_PROGRESS');
        t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status after the cancel');
        await slipChecked(t, p, id, obs);
      } finally {
        await release(t, p, id);
      }
    },
  );

  // The 200 comes before the terminal acts: the result is the converged status, never the answer.
  // spec, States and transitions, rule 1: "A successful cancel request does not mean the transaction is
  // canceled. The request returns 200 before the terminal has canceled, and the terminal may still fail
  // to process the cancellation."
  scenario(
    'cancel answers 200 but the terminal completes the payment (56): the result is the converged status',
    {
      ...cancelClause,
      clause: 'spec#states-and-transitions',
      needs: {
        stateful:
          'a cancel answered 200 while the terminal goes on to SUCCESS is a sequence of states; a stateless mock gives one fixed answer per request',
        terminal: autoOnly,
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'refuse-cancel');
      let id: string | undefined;
      try {
        id = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        const res = await cancelJudged(t, p, id);
        t.param('cancel answered', res.status);
        // The outcome table says SUCCESS whatever the cancel answered; a CANCELED end contradicts it.
        const obs = await settle(t, p, id, plan, 'amount refusing cancellation');
        t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status after the cancel');
        await slipChecked(t, p, id, obs);
      } finally {
        await release(t, p, id);
      }
    },
  );

  scenario(
    'cancel while IN_PROGRESS races the terminal: CANCELED or SUCCESS, polling and webhook agree',
    {
      ...table,
      needs: {
        stateful:
          'a race between the cancel and the terminal is timing, and its end a sequence of states; a stateless mock gives one fixed answer per request',
        terminal: NOT_MANUAL,
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      const plan = planFor(t, 'approve');
      let id: string | undefined;
      try {
        id = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        const seen = await waitForStatus(t, p, id, (s) => s === 'IN_PROGRESS', 1);
        const caught = seen.status === 'IN_PROGRESS';
        t.param('canceled while', caught ? 'IN_PROGRESS' : `${seen.status ?? 'unknown'} (the terminal was faster)`);
        const res = await cancelJudged(t, p, id);
        const obs = await settle(t, p, id, { amount: plan.amount });
        t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status after the cancel');
        t.param('final', obs.finalByPoll ?? 'none');
        if (caught && res.status === 200 && isAuto(t))
          t.scope.check('sandbox.cancel-race', { amount: plan.amount, actual: obs.finalByPoll });
        await slipChecked(t, p, id, obs);
      } finally {
        await release(t, p, id);
      }
    },
  );

  for (const want of ['approve', 'decline'] as const) {
    scenario(
      `cancel of a final transaction (${want}) answers 400 and changes nothing`,
      {
        ...table,
        ...(want === 'approve'
          ? { operator: [want] }
          : {
              needs: {
                terminal: {
                  modes: ['auto'],
                  why: 'only --terminal auto chooses the final status; the approve variant takes whatever the terminal does',
                },
              },
            }),
      },
      async (t) => {
        const p = await t.harness.primary(t.scope);
        const plan = planFor(t, want);
        const { id } = await begin(t, p, 'generateTransaction', { amount: plan.amount });
        const obs = await settle(t, p, id, plan);
        const final = t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
        const before = t.scope.need(obs.last, 'no status record was read');
        const res = await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
        t.scope.check('sandbox.cancel-final', res.exchange, { final });
        const after = await readStatus(t, p, id);
        t.scope.check('sandbox.cancel-final-unchanged', { before, after: after.record, cancelStatus: res.status });
        if (!isFinal(t, after.status)) await release(t, p, id);
      },
    );
  }

  scenario('cancel of an unknown transaction id answers 404', { capability: 'cancel', clause: 'sandbox#errors' }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const res = await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: unknownId() } });
    t.scope.check('errors.unknown-id', res.exchange);
  });
});
