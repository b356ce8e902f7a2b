import { describe } from 'vitest';
import { planFor, settle } from '../_setup/steps/flows.ts';
import { NOT_MANUAL, scenario } from '../../src/suite.ts';
import {
  afterCancel,
  begin,
  cancelJudged,
  isAuto,
  isFinal,
  readStatus,
  release,
  settleAs,
  slipChecked,
  unknownId,
  waitForStatus,
} from '../_setup/steps/payment.ts';

const capability = 'print-slip';
const slipClause = { capability, clause: 'spec#get-v1pay-connecttransactionstransaction_idprint-slip' };
const sandboxSlip = { capability, clause: 'sandbox#status-and-print-slip' };

describe('print-slip', () => {
  // Every final status gives 200 with the slip; its fields are checked automatically.
  for (const [status, want] of [
    ['SUCCESS', 'approve'],
    ['DECLINED', 'decline'],
    ['FAILED', 'fail'],
    ['EXPIRED', 'expire'],
  ] as const) {
    scenario(
      `print slip of ${status === 'EXPIRED' ? 'an' : 'a'} ${status} transaction`,
      {
        ...(status === 'SUCCESS' ? slipClause : sandboxSlip),
        ...(want === 'approve'
          ? { operator: [want] }
          : {
              needs: {
                terminal: {
                  modes: ['auto'],
                  why: 'only --terminal auto chooses the final status; the SUCCESS variant takes whatever the terminal does',
                },
              },
            }),
      },
      async (t) => {
        const p = await t.harness.primary(t.scope);
        const plan = planFor(t, want);
        const { id } = await begin(t, p, 'generateTransaction', { amount: plan.amount });
        const obs = await settle(t, p, id, plan);
        t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
        await slipChecked(t, p, id, obs);
      },
    );
  }

  scenario(
    'print slip of a CANCELED transaction',
    {
      ...sandboxSlip,
      needs: {
        terminal: NOT_MANUAL,
        stateful:
          'a transaction INITIATED, canceled, then CANCELED is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      // 55 stays INITIATED, so the cancel is certain to land; in observe mode cancel at once.
      const plan = planFor(t, isAuto(t) ? 'offline' : 'approve');
      let id: string | undefined;
      try {
        id = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
        const canceled = afterCancel(await cancelJudged(t, p, id));
        const obs = await settleAs(t, p, id, plan.amount, canceled, 'canceled offline amount');
        t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status after the cancel');
        await slipChecked(t, p, id, obs);
      } finally {
        await release(t, p, id);
      }
    },
  );

  for (const [status, want] of [
    ['INITIATED', 'offline'],
    ['IN_PROGRESS', 'wait-in-progress'],
  ] as const) {
    const autoOnly = {
      modes: ['auto'],
      why: 'only --terminal auto can hold the terminal IN_PROGRESS; the INITIATED variant asks while the transaction is not final',
    } as const;
    scenario(
      `print slip while ${status} answers 400`,
      {
        ...sandboxSlip,
        needs: {
          terminal: status === 'INITIATED' ? NOT_MANUAL : [NOT_MANUAL, autoOnly],
          stateful: `a slip refused while ${status}, then the transaction canceled, is a sequence of states; a stateless mock gives one fixed answer per request`,
        },
      },
      async (t) => {
        const p = await t.harness.primary(t.scope);
        const plan = planFor(t, isAuto(t) ? want : 'approve');
        let id: string | undefined;
        try {
          id = (await begin(t, p, 'generateTransaction', { amount: plan.amount })).id;
          const before =
            status === 'IN_PROGRESS' ? await waitForStatus(t, p, id, (s) => s === 'IN_PROGRESS', 5) : await readStatus(t, p, id);
          if (isAuto(t)) t.scope.check('sandbox.waiting-status', { amount: plan.amount, expected: status, actual: before.status });
          const res = await t.scope.call(p, 'getPrintSlip', { params: { transaction_id: id } });
          const after = await readStatus(t, p, id);
          // Judged only when the transaction was not final on both sides of the slip request.
          const pending =
            before.status !== undefined && !isFinal(t, before.status) && after.status !== undefined && !isFinal(t, after.status);
          if (pending) t.scope.check('print-slip.final-only', res.exchange, { status: after.status });
          const canceled = afterCancel(await cancelJudged(t, p, id));
          const obs = await settleAs(t, p, id, plan.amount, canceled, `amount canceled while ${status}`);
          t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status after the cancel');
          if (!pending) t.skip(`the transaction was final (${before.status} / ${after.status}) before the slip request could be judged`);
        } finally {
          await release(t, p, id);
        }
      },
    );
  }

  scenario('print slip of an unknown transaction id answers 404', { capability, clause: 'sandbox#errors' }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const res = await t.scope.call(p, 'getPrintSlip', { params: { transaction_id: unknownId() } });
    t.scope.check('errors.unknown-id', res.exchange);
  });
});
