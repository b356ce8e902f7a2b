/**
 * Webhooks: every delivery is signed over its raw bytes (judged by the harness on every delivery),
 * every status change is posted, webhook and polling agree (judged by convergence), duplicates and
 * reordering are tolerated (at least once, any order), and a delivery answered 500 is retried.
 */
import { describe } from 'vitest';
import { type Pairing, resolveProfile } from '../../src/index.ts';
import { planFor, settle, start } from '../_setup/steps/flows.ts';
import { freshClientTransactionId } from '../_setup/steps/client-transaction-id.ts';
import { type ScenarioContext, scenario, workerContext } from '../../src/suite.ts';
import { accepted, judgePosted, keyOf, retryWindow, waitUntil } from './deliveries.ts';

const info = { capability: 'webhooks', clause: 'sandbox#webhooks' };

/**
 * The run's pairing, when its deliveries reach this run's receiver; else skips. Once no valid webhook
 * arrives convergence after convergence, these scenarios are blocked by that finding.
 */
async function observable(t: ScenarioContext): Promise<Pairing> {
  const noWebhook = t.harness.defects.blocker('webhook-valid');
  if (noWebhook) t.scope.blockBy(noWebhook);
  const p = await t.harness.primary(t.scope);
  if (!p.receiver || !p.webhooksObservable) {
    t.skip(`webhooks of pairing ${p.label} are not observable here (its webhook_url is not this run's receiver, or it has no webhook key)`);
  }
  return p;
}

/** Failures asked of the receiver in the retry scenario. */
const FAILURES = 2;

/** A generous test timeout for the retry scenario: two convergences plus the retry window. */
function retryTimeout(): number {
  try {
    const { ctx } = workerContext();
    const windowSec = resolveProfile(ctx.profile)
      .webhook.retrySchedule.slice(0, FAILURES)
      .reduce((a, b) => a + b, 0);
    return Math.max(120_000, 3 * ctx.deadlineMs + 2 * windowSec * 1000 + 30_000);
  } catch {
    return 600_000;
  }
}

describe('webhooks', () => {
  // Decline first: after the payment suite's decline, a manual session keeps the card in hand.
  for (const want of ['decline', 'approve'] as const) {
    scenario(`signed deliveries post every status change: ${want}`, { ...info, operator: [want] }, async (t) => {
      const p = await observable(t);
      const plan = planFor(t, want);
      const { id } = await start(t, p, 'generateTransaction', {
        amount: plan.amount,
        client_transaction_id: freshClientTransactionId(`wh-${want}`, t.harness.ctx),
      });
      const obs = await settle(t, p, id, plan);
      t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
      await judgePosted(t, p, obs, 'transaction');
    });
  }

  scenario(
    'a cancel is posted',
    {
      ...info,
      needs: {
        stateful:
          'a transaction pending, then CANCELED after the cancel, is a sequence of states; a stateless mock gives one fixed answer per request',
      },
    },
    async (t) => {
      const p = await observable(t);
      const plan = planFor(t, 'offline');
      const { id } = await start(t, p, 'generateTransaction', { amount: plan.amount });
      await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
      const obs = await t.scope.converge(p, 'transaction', id);
      t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
      await judgePosted(t, p, obs, 'transaction');
    },
  );

  scenario('operation status changes are posted', { ...info, operator: ['approve'] }, async (t) => {
    const p = await observable(t);
    const plan = planFor(t, 'approve');
    const { id } = await start(t, p, 'startPreauth', { amount: plan.amount });
    const obs = await settle(t, p, id, plan);
    if (obs.finalByPoll !== 'SUCCESS')
      t.skip(`the preauthorization ended ${obs.finalByPoll ?? 'without a final status'}, not SUCCESS: no operation to run`);
    const amount = t.harness.ctx.sandbox ? 100 : Math.min(100, t.harness.ctx.maxAmount);
    t.param('increment', amount);
    const res = await t.scope.call(p, 'preauthIncrement', { params: { transaction_id: id }, body: { amount } });
    const opId = t.scope.idFrom(res, 'operation_id', 'preauth increment');
    const op = await t.scope.converge(p, 'operation', opId);
    t.scope.need(op.finalByPoll, 'the operation did not reach a final status');
    await judgePosted(t, p, op, 'operation');
  });

  scenario(
    `a delivery answered 500 is retried (receiver fails ${FAILURES} deliveries)`,
    {
      ...info,
      clause: 'profile#webhooks',
      timeout: retryTimeout(),
      operator: ['approve'],
      needs: {
        stateful:
          "retries follow the service's schedule after failed deliveries: timing, which a mock posting each message once cannot show",
      },
    },
    async (t) => {
      const p = await observable(t);
      const rx = p.receiver!;
      const ctx = t.harness.ctx;
      const { scale, scheduleMs, windowMs } = retryWindow(t, FAILURES);
      t.param('retry schedule (ms)', scheduleMs.join(', '));
      t.param('retry window (ms)', windowMs);
      // The worst case: one event failed every time needs the sum of the first back-offs, and
      // convergence (which waits for the final webhook) must see it before the run's deadline.
      if (windowMs + ctx.settleMs >= ctx.deadlineMs) {
        t.skip(
          `a delivery failed ${FAILURES} times is retried up to ${windowMs / 1000} s later by the profile's schedule ` +
            `(${t.harness.profile.webhook.retrySchedule.slice(0, FAILURES).join(' + ')} s${scale === 1 ? '' : ` x ${scale}`}), ` +
            `which does not fit the run's deadline of ${ctx.deadlineMs / 1000} s (raise --deadline)`,
        );
      }
      const plan = planFor(t, 'approve');
      const mark = rx.deliveries().length;
      rx.failNext(FAILURES);
      try {
        const { id } = await start(t, p, 'generateTransaction', { amount: plan.amount });
        // The final status's webhook may be one this receiver refused: it comes back within the window.
        const obs = await settle(t, p, id, plan, 'amount', { webhookGraceMs: windowMs + Math.max(1000, ctx.settleMs * 4) });
        t.scope.need(obs.finalByPoll, 'the transaction did not reach a final status');
        const since = () => rx.deliveries().slice(mark);
        const failed = () => since().filter((d) => d.failedOnPurpose);
        // Each failed delivery must come back; the last failure bounds the wait.
        const slack = Math.max(1000, ctx.settleMs * 4);
        const lastFailure = Math.max(0, ...failed().map((d) => d.receivedAt));
        const waitMs = Math.min(ctx.deadlineMs, Math.max(0, lastFailure + 2 * windowMs + slack - Date.now()));
        const back = () => failed().every((f) => since().some((d) => d.seq > f.seq && keyOf(d) === keyOf(f) && accepted(d)));
        await waitUntil(rx, back, waitMs);
        const t0 = rx.deliveries()[mark]?.receivedAt ?? Date.now();
        const keys = new Set(failed().map(keyOf));
        const firstFailure = Math.min(Date.now(), ...failed().map((d) => d.receivedAt));
        t.param('failed on purpose', failed().length);
        t.scope.check('webhook.retried', {
          failed: failed().map((d) => ({ key: keyOf(d), event: d.event, seq: d.seq, atMs: d.receivedAt - t0 })),
          redelivered: since()
            .filter((d) => keys.has(keyOf(d)))
            .map((d) => ({ key: keyOf(d), seq: d.seq, atMs: d.receivedAt - t0, status: d.status })),
          waitedMs: Date.now() - firstFailure,
          scheduleMs,
        });
        await judgePosted(t, p, obs, 'transaction');
      } finally {
        rx.failNext(0);
      }
    },
  );
});
