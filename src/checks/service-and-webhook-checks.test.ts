/**
 * Unit tests of the service, webhook and invariant checks: for each, an input it passes and one it
 * fails, with what the finding says.
 */
import { describe, expect, it } from 'vitest';
import type { ConvergenceObservation } from '../core/index.ts';
import { countryCode, currencyCode, totalAmount } from './invariants.ts';
import { judge } from './test-judge.ts';
import { requestAnswered, tokenObtained } from './service-checks.ts';
import { everyStatusPosted, serviceSendsWebhooks, webhookDataMatchesRecord, webhookRetried } from './webhook-checks.ts';

const sighting = (status: string, atMs = 0) => ({ status, channel: 'poll' as const, atMs });
function convergence(over: Partial<ConvergenceObservation> = {}): ConvergenceObservation {
  return {
    kind: 'transaction',
    id: 't-1',
    polled: [sighting('INITIATED'), sighting('IN_PROGRESS'), sighting('SUCCESS')],
    webhooks: [sighting('IN_PROGRESS'), sighting('SUCCESS')].map((s) => ({ ...s, channel: 'webhook' as const })),
    finalByPoll: 'SUCCESS',
    webhooksObservable: true,
    deadlineMs: 1000,
    elapsedMs: 300,
    timedOut: false,
    ...over,
  };
}

describe('service checks', () => {
  it('request.answered: an answer passes, silence fails naming the request and why', () => {
    expect(judge(requestAnswered, { request: 'GET /v1/pay-connect/config/' }).outcome).toBe('pass');
    const r = judge(requestAnswered, { request: 'GET /v1/pay-connect/config/', error: 'ECONNREFUSED' });
    expect(r.outcome).toBe('fail');
    expect(r.findings[0]).toMatchObject({
      check: 'request.answered',
      severity: 'failure',
      message: 'GET /v1/pay-connect/config/: no answer (ECONNREFUSED)',
    });
  });

  it('auth.token-obtained: a token passes, a refusal fails as a spec failure', () => {
    expect(judge(tokenObtained, {}).outcome).toBe('pass');
    const r = judge(tokenObtained, { refused: 'token endpoint answered 401' });
    expect(r.findings[0]).toMatchObject({
      severity: 'failure',
      clause: 'spec#authentication',
      message: expect.stringContaining('answered 401'),
    });
  });
});

describe('webhook checks', () => {
  it('webhook.every-status-posted: every change after INITIATED posted passes; a missing one fails, naming it', () => {
    expect(judge(everyStatusPosted, convergence()).outcome).toBe('pass');
    const r = judge(everyStatusPosted, convergence({ webhooks: [{ status: 'IN_PROGRESS', channel: 'webhook', atMs: 0 }] }));
    expect(r.outcome).toBe('fail');
    expect(r.findings[0]!.message).toBe('transaction t-1: no valid webhook for SUCCESS (polling saw INITIATED -> IN_PROGRESS -> SUCCESS)');
    expect(r.findings[0]!.severity).toBe('warning'); // a sandbox rule
    expect(judge(everyStatusPosted, convergence({ webhooksObservable: false, webhooks: [] })).outcome).toBe('skip');
  });

  it('webhook.retried: a 500 followed by the same key passes; one never sent again fails', () => {
    const base = { waitedMs: 5000, scheduleMs: [50, 100] };
    const failed = [{ key: 'e-1', event: 'transaction.success', seq: 3, atMs: 10 }];
    expect(judge(webhookRetried, { ...base, failed, redelivered: [{ key: 'e-1', seq: 4, atMs: 70, status: 200 }] }).outcome).toBe('pass');
    const lost = judge(webhookRetried, { ...base, failed, redelivered: [{ key: 'e-2', seq: 4, atMs: 70, status: 200 }] });
    expect(lost.outcome).toBe('fail');
    expect(lost.findings[0]!.message).toBe('not delivered again within 5000 ms after a 500: transaction.success e-1');
    expect(judge(webhookRetried, { ...base, failed: [], redelivered: [] }).outcome).toBe('skip');
  });

  it('webhook.service-sends: one valid delivery in the run passes; none where they were observable fails the spec', () => {
    expect(judge(serviceSendsWebhooks, { observedFinals: 40, deliveries: 90, validDeliveries: 1 }).outcome).toBe('pass');
    expect(judge(serviceSendsWebhooks, { observedFinals: 0, deliveries: 0, validDeliveries: 0 }).outcome).toBe('skip');
    const none = judge(serviceSendsWebhooks, { observedFinals: 40, deliveries: 0, validDeliveries: 0 });
    expect(none.findings[0]).toMatchObject({ check: 'webhook.service-sends', severity: 'failure', clause: 'spec#events' });
    expect(none.findings[0]!.message).toContain('no delivery arrived at all');
    const forged = judge(serviceSendsWebhooks, { observedFinals: 40, deliveries: 90, validDeliveries: 0 });
    expect(forged.findings[0]!.message).toContain('90 deliveries arrived, none validly signed');
  });
});

describe('invariants', () => {
  const slip = {
    transaction_id: 't-1',
    amount: 1000,
    tip_amount: 100,
    total_amount: 1100,
    currency: 'EUR',
    organization: { country: 'SI' },
  };

  it('invariant.total-amount: amount + tip passes; any other total fails with the three numbers', () => {
    expect(judge(totalAmount, { body: slip }).outcome).toBe('pass');
    const r = judge(totalAmount, { body: { ...slip, total_amount: 1000 } });
    expect(r.findings[0]!.message).toBe('total_amount 1000 != amount 1000 + tip_amount 100');
  });

  it('invariant.currency: an ISO 4217 code passes, anything else fails; webhook data is looked into', () => {
    expect(judge(currencyCode, { body: slip }).outcome).toBe('pass');
    expect(judge(currencyCode, { body: { event: 'transaction.success', data: { ...slip, currency: 'euro' } } }).findings[0]!.message).toBe(
      'currency "euro" is not an ISO 4217 alpha-3 code',
    );
    expect(judge(currencyCode, { body: { ...slip, currency: 'XYZ' } }).outcome).toBe('fail');
  });

  it('invariant.country: an ISO 3166-1 alpha-2 code passes, an unknown one fails', () => {
    expect(judge(countryCode, { body: slip }).outcome).toBe('pass');
    expect(judge(countryCode, { body: { ...slip, organization: { country: 'XX' } } }).findings[0]!.message).toBe(
      'organization.country "XX" is not an ISO 3166-1 alpha-2 code',
    );
  });
});

describe('webhook.data-matches-record', () => {
  const record = (over: Record<string, unknown> = {}) => ({
    transaction_id: 't-1',
    client_transaction_id: 'c-1',
    status: 'SUCCESS',
    amount: 1057,
    tip_amount: 100,
    total_amount: 1157,
    currency: 'EUR',
    payment_method: 'CARD',
    tags: ['charge'],
    created_at: '2026-11-24T10:00:00Z',
    completed_at: '2026-11-24T10:00:02Z',
    ...over,
  });
  const obs = (data: Record<string, unknown>, records: Record<string, unknown>[] = [record()]) => ({
    kind: 'transaction' as const,
    id: 't-1',
    deliveries: [{ event: `transaction.${String(data.status).toLowerCase()}`, data }],
    records,
  });

  it('the data of the status record passes', () => {
    expect(judge(webhookDataMatchesRecord, obs(record())).outcome).toBe('pass');
  });

  it('a wrong tip (and total) is reported as a sandbox warning, field by field', () => {
    const r = judge(webhookDataMatchesRecord, obs(record({ tip_amount: 0, total_amount: 1057 })));
    expect(r.findings[0]).toMatchObject({ check: 'webhook.data-matches-record', severity: 'warning', clause: 'sandbox#webhooks' });
    expect(r.findings[0]!.message).toBe(
      'transaction t-1: webhook data disagrees with the status record polled in the same status: ' +
        'transaction.success tip_amount 0, polled 100; transaction.success total_amount 1057, polled 1157',
    );
  });

  it('every shared field is compared: currency, payment_method, tags, client_transaction_id, timestamps', () => {
    for (const [field, value] of [
      ['currency', 'USD'],
      ['payment_method', 'TWINT'],
      ['tags', ['refund']],
      ['client_transaction_id', 'c-2'],
      ['completed_at', '2026-11-24T10:00:09Z'],
    ] as const) {
      expect(judge(webhookDataMatchesRecord, obs(record({ [field]: value }))).outcome, field).toBe('fail');
    }
  });

  it('the same value written otherwise is no disagreement: one instant, tags in another order', () => {
    const polled = record({ tags: ['charge', 'overpaid'] });
    expect(
      judge(webhookDataMatchesRecord, obs(record({ completed_at: '2026-11-24T10:00:02.000Z', tags: ['overpaid', 'charge'] }), [polled]))
        .outcome,
    ).toBe('pass');
    expect(
      judge(webhookDataMatchesRecord, obs(record({ completed_at: '2026-11-24T12:00:02.4+02:00', tags: ['charge', 'overpaid'] }), [polled]))
        .outcome,
    ).toBe('pass');
    expect(
      judge(webhookDataMatchesRecord, obs(record({ completed_at: '2026-11-24T10:00:03Z', tags: ['charge', 'overpaid'] }), [polled]))
        .outcome,
    ).toBe('fail');
  });

  it('a field absent or null on one side is not compared; the data is compared with the records of its own status only', () => {
    const { payment_method: _, ...without } = record();
    expect(judge(webhookDataMatchesRecord, obs(without)).outcome).toBe('pass');
    expect(judge(webhookDataMatchesRecord, obs(record({ payment_method: null }))).outcome).toBe('pass');
    // IN_PROGRESS had no tip yet; the record polled later in SUCCESS has one: not the same moment.
    expect(
      judge(
        webhookDataMatchesRecord,
        obs(record({ status: 'IN_PROGRESS', tip_amount: 0, total_amount: 1057 }), [
          record({ status: 'IN_PROGRESS', tip_amount: 0, total_amount: 1057 }),
          record(),
        ]),
      ).outcome,
    ).toBe('pass');
    expect(judge(webhookDataMatchesRecord, obs(record({ status: 'IN_PROGRESS', tip_amount: 0 }), [record()])).outcome).toBe('skip');
    // A record that changed within one status: agreeing with one of its polled versions is enough.
    expect(
      judge(
        webhookDataMatchesRecord,
        obs(record({ status: 'IN_PROGRESS', payment_method: 'CARD' }), [
          record({ status: 'IN_PROGRESS', payment_method: 'TWINT' }),
          record({ status: 'IN_PROGRESS' }),
        ]),
      ).outcome,
    ).toBe('pass');
  });

  it('nothing delivered is not checked', () => {
    expect(judge(webhookDataMatchesRecord, { kind: 'transaction', id: 't-1', deliveries: [], records: [record()] }).outcome).toBe('skip');
  });
});
