/**
 * Checks on what was observed over time: status transitions, convergence, webhook deliveries against
 * polling, and the sandbox's documented outcomes.
 */
import { validators } from '../generated/contract.ts';
import { isReachable } from '../profile/index.ts';
import { describeErrors } from './schema-errors.ts';
import { defineCheck, fail, pass, skip } from './check.ts';
import type { ConvergenceObservation } from '../core/index.ts';

export type { ConvergenceObservation, StatusSighting } from '../core/index.ts';

/**
 * Every polled transition follows the profile's transition graph (reachability: polls may skip states),
 * and the statuses posted by webhook fit one legal history. Deliveries may arrive out of order
 * (sandbox.md), so their order says nothing; but two statuses posted for one id that no path of the
 * graph joins, in either order (SUCCESS and FAILED), cannot both have been true: the status left a
 * final one. Polling alone misses a final status that lasts less than the time between two polls,
 * while the service posts each one (sandbox.md: every status change). Statuses outside the graph are
 * the schema's to judge.
 */
export const transitionLegal = defineCheck<ConvergenceObservation, 'transition.legal'>({
  id: 'transition.legal',
  clause: 'profile#rules-of-behaviour',
  source: 'profile',
  title: 'Observed status transitions are allowed by the transition graph',
  run(o, ctx) {
    const graph = o.kind === 'transaction' ? ctx.profile.transactionGraph : ctx.profile.operationGraph;
    const bad: string[] = [];
    for (let i = 1; i < o.polled.length; i++) {
      const [a, b] = [o.polled[i - 1]!.status, o.polled[i]!.status];
      if (!isReachable(graph, a, b)) bad.push(`${a} -> ${b}`);
    }
    const joined = (a: string, b: string) => isReachable(graph, a, b) || isReachable(graph, b, a);
    const posted = [...new Set(o.webhooks.map((w) => w.status))].filter((s) => s in graph);
    const clashes: string[] = [];
    for (let i = 0; i < posted.length; i++)
      for (let j = i + 1; j < posted.length; j++) {
        const [a, b] = [posted[i]!, posted[j]!];
        // A pair polling already showed as a step is one defect, said once.
        if (!joined(a, b) && !bad.includes(`${a} -> ${b}`) && !bad.includes(`${b} -> ${a}`)) clashes.push(`${a} and ${b}`);
      }
    if (bad.length === 0 && clashes.length === 0) return pass();
    const said = [
      ...(bad.length > 0 ? [`illegal transition ${bad.join(', ')}`] : []),
      ...(clashes.length > 0 ? [`webhooks posted ${clashes.join(', ')}, which no legal transition joins`] : []),
    ];
    return fail({
      message: `${o.kind} ${o.id}: ${said.join('; ')}`,
      evidence: { polled: o.polled, ...(clashes.length > 0 ? { webhooks: o.webhooks } : {}) },
    });
  },
});

/**
 * The request's result is confirmed later by polling or webhook: a final status within the deadline.
 * The spec names a transaction's statuses; an operation's are the public profile's (the spec shows
 * none), so an operation that never reaches one of them deviates from the profile only.
 */
export const convergesInTime = defineCheck<ConvergenceObservation, 'convergence.deadline'>({
  id: 'convergence.deadline',
  clause: 'spec#what-the-service-does',
  source: 'spec',
  title: 'A transaction or operation reaches a final status before the deadline',
  run(o) {
    if (!o.timedOut) return pass();
    const last = o.polled.at(-1)?.status ?? 'nothing';
    const operation =
      o.kind === 'operation' ? { source: 'profile' as const, clause: 'profile#endpoints-the-spec-refers-to-but-does-not-show' } : {};
    return fail({
      message: `${o.kind} ${o.id} still ${last} after ${o.deadlineMs} ms`,
      ...operation,
      evidence: { polled: o.polled, webhooks: o.webhooks, deadlineMs: o.deadlineMs },
    });
  },
});

/** The final status seen by webhook equals the one seen by polling. */
export const webhookAgreesWithPolling = defineCheck<ConvergenceObservation, 'webhook.agrees-with-polling'>({
  id: 'webhook.agrees-with-polling',
  clause: 'spec#events',
  source: 'spec',
  title: 'Webhook and polling report the same final status',
  run(o) {
    if (!o.webhooksObservable) return skip('webhooks are not observable for this pairing');
    if (!o.finalByPoll || !o.finalByWebhook) return skip('no final status on both channels');
    if (o.finalByPoll === o.finalByWebhook) return pass();
    return fail({
      message: `${o.kind} ${o.id}: polling says ${o.finalByPoll}, webhook says ${o.finalByWebhook}`,
      evidence: { polled: o.polled, webhooks: o.webhooks },
    });
  },
});

/** The final status change was delivered by webhook (sandbox: every status change is posted). */
export const webhookDelivered = defineCheck<ConvergenceObservation, 'webhook.delivered'>({
  id: 'webhook.delivered',
  clause: 'sandbox#webhooks',
  source: 'sandbox',
  title: 'The final status change is delivered by webhook',
  run(o) {
    if (!o.webhooksObservable) return skip('webhooks are not observable for this pairing');
    if (!o.finalByPoll) return skip('no final status by polling');
    if (o.webhooks.some((w) => w.status === o.finalByPoll)) return pass();
    // The status stays out of the message: a missing webhook is one defect whatever the outcome.
    return fail({
      message: `${o.kind} ${o.id}: no valid webhook for its final status within the deadline`,
      evidence: { finalByPoll: o.finalByPoll, webhooks: o.webhooks },
    });
  },
});

/** A delivery as the receiver judged it. */
export interface DeliveryObservation {
  event?: string;
  signature: 'valid' | 'missing' | 'invalid' | 'unchecked';
  eventId?: string;
}

/** Every delivery carries a valid `Signature` (public profile: HMAC-SHA256 over the raw body). */
export const webhookSignature = defineCheck<DeliveryObservation, 'webhook.signature'>({
  id: 'webhook.signature',
  clause: 'profile#webhooks',
  source: 'profile',
  title: 'Webhook deliveries are signed with the pairing key over the raw body',
  run(d) {
    if (d.signature === 'valid') return pass();
    if (d.signature === 'unchecked') return skip('no webhook key to verify with');
    // The event stays in the evidence: a bad signature is one defect whatever the event.
    return fail({ message: `a webhook delivery's signature is ${d.signature}`, evidence: d });
  },
});

/** The sandbox outcome table: final status and tip by `amount % 100`. */
export const sandboxOutcome = defineCheck<
  { amount: number; expected: string; actual?: string; expectedTip?: number; actualTip?: unknown; what?: string },
  'sandbox.outcome'
>({
  id: 'sandbox.outcome',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'The virtual terminal ends as the outcome table says',
  run(o) {
    if (o.actual === undefined) return skip('no final status observed');
    const problems: string[] = [];
    if (o.actual !== o.expected) problems.push(`final ${o.actual}, expected ${o.expected}`);
    if (o.expectedTip !== undefined && o.actualTip !== undefined && o.actualTip !== o.expectedTip)
      problems.push(`tip_amount ${String(o.actualTip)}, expected ${o.expectedTip}`);
    return problems.length === 0 ? pass() : fail({ message: `${o.what ?? 'amount'} ${o.amount}: ${problems.join('; ')}`, evidence: o });
  },
});

/** The print slip's currency and timezone equal the configuration's (sandbox). */
export const slipMatchesConfig = defineCheck<
  { slip: Record<string, unknown>; config: Record<string, unknown> },
  'print-slip.matches-config'
>({
  id: 'print-slip.matches-config',
  clause: 'sandbox#status-and-print-slip',
  source: 'sandbox',
  title: "The print slip's currency and timezone equal the configuration's",
  run({ slip, config }) {
    const bad = (['currency', 'timezone'] as const).filter((k) => slip[k] !== config[k]);
    return bad.length === 0
      ? pass()
      : fail({
          message: bad.map((k) => `slip ${k} ${JSON.stringify(slip[k])} != config ${JSON.stringify(config[k])}`).join('; '),
          evidence: {
            slip: { currency: slip.currency, timezone: slip.timezone },
            config: { currency: config.currency, timezone: config.timezone },
          },
        });
  },
});

/** The pairing result echoes the name and carries a webhook key exactly when a webhook_url was given. */
export const pairingEchoesName = defineCheck<{ sentName: string; result: Record<string, unknown> }, 'pairing.name-echoed'>({
  id: 'pairing.name-echoed',
  clause: 'spec#pairing-result',
  source: 'spec',
  title: 'pay_connect_name is the name supplied at pairing',
  run({ sentName, result }) {
    return result.pay_connect_name === sentName
      ? pass()
      : fail({ message: `pay_connect_name ${JSON.stringify(result.pay_connect_name)} != ${JSON.stringify(sentName)}` });
  },
});

export const pairingWebhookKey = defineCheck<{ webhookUrlGiven: boolean; result: Record<string, unknown> }, 'pairing.webhook-key'>({
  id: 'pairing.webhook-key',
  clause: 'sandbox#pairing',
  source: 'sandbox',
  title: 'webhook_secret_key is a non-empty string with a webhook_url, null without',
  run({ webhookUrlGiven, result }) {
    const k = result.webhook_secret_key;
    if (webhookUrlGiven)
      return typeof k === 'string' && k.length > 0 ? pass() : fail({ message: 'no webhook_secret_key although a webhook_url was given' });
    return k === null
      ? pass()
      : fail({ message: `webhook_secret_key is ${k === undefined ? 'missing' : 'not null'} although no webhook_url was given` });
  },
});

/** A webhook body matches the contract's event schema (sandbox). */
export const webhookSchema = defineCheck<unknown, 'webhook.schema'>({
  id: 'webhook.schema',
  clause: 'sandbox#webhooks',
  source: 'sandbox',
  title: 'Webhook bodies match the event schema',
  run(body) {
    const event = (body as { event?: unknown })?.event;
    const name = typeof event === 'string' && event.startsWith('operation.') ? 'OperationEvent' : 'TransactionEvent';
    const v = validators[name]!;
    if (v(body)) return pass();
    return fail({ message: `webhook ${String(event)} does not match ${name}: ${describeErrors(v.errors ?? [])}`, evidence: { body } });
  },
});
