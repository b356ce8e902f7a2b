/**
 * Unit tests of the checks on what was observed over time (transitions, convergence, webhooks against
 * polling, the sandbox's outcomes, pairing answers): for each, an observation it passes and one it
 * fails, with what the finding says.
 */
import { describe, expect, it } from 'vitest';
import type { ConvergenceObservation } from '../core/index.ts';
import {
  convergesInTime,
  pairingEchoesName,
  pairingWebhookKey,
  sandboxOutcome,
  slipMatchesConfig,
  transitionLegal,
  webhookAgreesWithPolling,
  webhookDelivered,
  webhookSchema,
  webhookSignature,
} from './observations.ts';
import { judge, message } from './test-judge.ts';

const poll = (...statuses: string[]) => statuses.map((status, i) => ({ status, channel: 'poll' as const, atMs: i * 10 }));
const hooks = (...statuses: string[]) => statuses.map((status, i) => ({ status, channel: 'webhook' as const, atMs: i * 10 }));
function obs(over: Partial<ConvergenceObservation> = {}): ConvergenceObservation {
  return {
    kind: 'transaction',
    id: 't-1',
    polled: poll('INITIATED', 'IN_PROGRESS', 'SUCCESS'),
    webhooks: hooks('IN_PROGRESS', 'SUCCESS'),
    finalByPoll: 'SUCCESS',
    finalByWebhook: 'SUCCESS',
    webhooksObservable: true,
    deadlineMs: 2500,
    elapsedMs: 400,
    timedOut: false,
    ...over,
  };
}

describe('convergence', () => {
  it('transition.legal: a path of the graph passes (polls may skip states); a step back fails', () => {
    expect(judge(transitionLegal, obs({ polled: poll('INITIATED', 'SUCCESS') })).outcome).toBe('pass');
    expect(message(transitionLegal, obs({ polled: poll('SUCCESS', 'IN_PROGRESS') }))).toBe(
      'transaction t-1: illegal transition SUCCESS -> IN_PROGRESS',
    );
    expect(judge(transitionLegal, obs({ kind: 'operation', polled: poll('INITIATED', 'FAILED') })).outcome).toBe('pass');
  });

  it('transition.legal: webhooks in any order pass when one legal history holds them; two final statuses no path joins fail', () => {
    // Out of order (sandbox.md allows it), and SUCCESS then REVERTED: one legal history each.
    expect(judge(transitionLegal, obs({ webhooks: hooks('SUCCESS', 'IN_PROGRESS', 'INITIATED') })).outcome).toBe('pass');
    expect(judge(transitionLegal, obs({ webhooks: hooks('REVERTED', 'SUCCESS') })).outcome).toBe('pass');
    // Polling skipped a SUCCESS that lasted less than a poll's gap; its webhook and FAILED's show it.
    const flipped = obs({
      polled: poll('IN_PROGRESS', 'FAILED'),
      webhooks: hooks('IN_PROGRESS', 'SUCCESS', 'FAILED'),
      finalByPoll: 'FAILED',
    });
    expect(message(transitionLegal, flipped)).toBe('transaction t-1: webhooks posted SUCCESS and FAILED, which no legal transition joins');
    // Seen by polling too: one defect, said once.
    const both = obs({ polled: poll('SUCCESS', 'FAILED'), webhooks: hooks('SUCCESS', 'FAILED'), finalByPoll: 'FAILED' });
    expect(message(transitionLegal, both)).toBe('transaction t-1: illegal transition SUCCESS -> FAILED');
    // A status outside the graph is the schema's to judge, not a transition.
    expect(judge(transitionLegal, obs({ webhooks: hooks('SUCCESS', 'APPROVED') })).outcome).toBe('pass');
  });

  it('convergence.deadline: in time passes; a miss fails with the last status; an operation misses a profile rule', () => {
    expect(judge(convergesInTime, obs()).outcome).toBe('pass');
    const missed = judge(convergesInTime, obs({ timedOut: true, polled: poll('INITIATED', 'IN_PROGRESS'), finalByPoll: undefined }));
    expect(missed.findings[0]).toMatchObject({ message: 'transaction t-1 still IN_PROGRESS after 2500 ms', severity: 'failure' });
    const op = judge(convergesInTime, obs({ kind: 'operation', id: 'o-1', timedOut: true, polled: poll('PROCESSED') }));
    expect(op.findings[0]).toMatchObject({ message: 'operation o-1 still PROCESSED after 2500 ms', severity: 'warning' });
  });
});

describe('webhooks against polling', () => {
  it('webhook.agrees-with-polling: the same final passes; another fails naming both', () => {
    expect(judge(webhookAgreesWithPolling, obs()).outcome).toBe('pass');
    expect(message(webhookAgreesWithPolling, obs({ finalByWebhook: 'DECLINED' }))).toBe(
      'transaction t-1: polling says SUCCESS, webhook says DECLINED',
    );
    expect(judge(webhookAgreesWithPolling, obs({ webhooksObservable: false })).outcome).toBe('skip');
  });

  it('webhook.delivered: the final status delivered passes; none fails without naming the status (one defect)', () => {
    expect(judge(webhookDelivered, obs()).outcome).toBe('pass');
    expect(message(webhookDelivered, obs({ webhooks: hooks('IN_PROGRESS'), finalByWebhook: undefined }))).toBe(
      'transaction t-1: no valid webhook for its final status within the deadline',
    );
    expect(judge(webhookDelivered, obs({ finalByPoll: undefined })).outcome).toBe('skip');
  });

  it('webhook.signature: valid passes, unchecked is skipped, missing and invalid fail', () => {
    expect(judge(webhookSignature, { signature: 'valid' }).outcome).toBe('pass');
    expect(judge(webhookSignature, { signature: 'unchecked' }).outcome).toBe('skip');
    expect(message(webhookSignature, { signature: 'invalid', event: 'transaction.success' })).toBe(
      "a webhook delivery's signature is invalid",
    );
    expect(message(webhookSignature, { signature: 'missing' })).toBe("a webhook delivery's signature is missing");
  });

  it('webhook.schema: an event of the schema passes; a status outside its enum fails', () => {
    const event = { event: 'transaction.success', event_id: 'e-1', data: { transaction_id: 't-1', status: 'SUCCESS' } };
    const ok = judge(webhookSchema, event);
    expect(ok.outcome, JSON.stringify(ok.findings)).toBe('pass');
    expect(message(webhookSchema, { ...event, data: { ...event.data, status: 'DONE' } })).toMatch(
      /^webhook transaction\.success does not match TransactionEvent: .*status/,
    );
  });
});

describe('sandbox outcomes and pairing answers', () => {
  it('sandbox.outcome: the table final and tip pass; another fails naming both', () => {
    expect(judge(sandboxOutcome, { amount: 1057, expected: 'SUCCESS', actual: 'SUCCESS', expectedTip: 100, actualTip: 100 }).outcome).toBe(
      'pass',
    );
    expect(message(sandboxOutcome, { amount: 1051, expected: 'DECLINED', actual: 'SUCCESS', expectedTip: 0, actualTip: 5 })).toBe(
      'amount 1051: final SUCCESS, expected DECLINED; tip_amount 5, expected 0',
    );
    expect(judge(sandboxOutcome, { amount: 1051, expected: 'DECLINED' }).outcome).toBe('skip');
  });

  it("print-slip.matches-config: the config's currency and timezone pass; others fail", () => {
    const config = { currency: 'EUR', timezone: 'Europe/Ljubljana' };
    expect(judge(slipMatchesConfig, { slip: { ...config, amount: 1 }, config }).outcome).toBe('pass');
    expect(message(slipMatchesConfig, { slip: { currency: 'USD', timezone: 'Europe/Ljubljana' }, config })).toBe(
      'slip currency "USD" != config "EUR"',
    );
  });

  it('pairing.name-echoed: the name sent passes; another fails', () => {
    expect(judge(pairingEchoesName, { sentName: 'till 1', result: { pay_connect_name: 'till 1' } }).outcome).toBe('pass');
    expect(message(pairingEchoesName, { sentName: 'till 1', result: { pay_connect_name: 'till' } })).toBe(
      'pay_connect_name "till" != "till 1"',
    );
  });

  it('pairing.webhook-key: a key with a webhook_url and null without pass; the other way round fails', () => {
    expect(judge(pairingWebhookKey, { webhookUrlGiven: true, result: { webhook_secret_key: 'k' } }).outcome).toBe('pass');
    expect(judge(pairingWebhookKey, { webhookUrlGiven: false, result: { webhook_secret_key: null } }).outcome).toBe('pass');
    expect(message(pairingWebhookKey, { webhookUrlGiven: true, result: {} })).toBe(
      'no webhook_secret_key although a webhook_url was given',
    );
    expect(message(pairingWebhookKey, { webhookUrlGiven: false, result: { webhook_secret_key: 'k' } })).toBe(
      'webhook_secret_key is not null although no webhook_url was given',
    );
  });
});
