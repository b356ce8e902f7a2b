/**
 * Unit tests of the pairing, auth and configuration checks: for each, an input it passes and one it
 * fails, and the sandbox-only rules skipped under the public profile.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import type { Check } from './check.ts';
import * as pc from './pairing-checks.ts';
import { PUBLIC, judge, message } from './test-judge.ts';

const publicCtx = PUBLIC;
const ex = (status: number, path = '/v1/pay-connect/pair/', method = 'POST'): Exchange =>
  ({
    seq: 7,
    startedAt: '2026-11-24T10:00:00.000Z',
    request: { method, path, headers: {} },
    response: { status, headers: {}, body: {} },
  }) as unknown as Exchange;

/** Status rules on one exchange: [check, a status it passes, a status it fails, the failure's text]. */
const STATUS_RULES: [Check<Exchange>, number, number, string][] = [
  [
    pc.badOtpRefused,
    400,
    200,
    'POST /v1/pay-connect/pair/ answered 200 for a malformed or never-valid OTP; expected a 4xx refusal (it paired)',
  ],
  [pc.badOtp400, 400, 401, 'POST /v1/pay-connect/pair/ answered 401; the sandbox answers 400'],
  [pc.unpairAccepted, 200, 401, 'POST /v1/pay-connect/pair/ answered 401; expected 200 (no body)'],
  [
    pc.credentialsRevoked,
    401,
    200,
    'POST /v1/pay-connect/pair/ answered 200 (a token request with unpaired credentials: accepted); the sandbox answers 400 or 401',
  ],
  [pc.refused401, 401, 403, 'POST /v1/pay-connect/pair/ answered 403; the sandbox answers 401'],
  [pc.integratorMissing400, 400, 401, 'POST /v1/pay-connect/pair/ answered 401; the sandbox answers 400'],
  [
    pc.otherIntegratorRefused,
    401,
    200,
    'POST /v1/pay-connect/pair/ answered 200 (a request with another integrator id: accepted); the sandbox answers 401',
  ],
  [
    pc.tokenWithIntegrator,
    200,
    400,
    'POST /v1/pay-connect/pair/ answered 400 (a token request with the integrator header); the sandbox answers 200',
  ],
  [pc.badCredentialsRefused, 401, 200, 'POST /v1/pay-connect/pair/ answered 200 for a wrong client_secret; expected a 4xx refusal'],
  [
    pc.paymentMethodAccepted,
    200,
    400,
    'POST /v1/pay-connect/pair/ answered 400 (generate with a configured payment method); the sandbox answers 200',
  ],
  [
    pc.unknownPaymentMethodRefused,
    400,
    200,
    'POST /v1/pay-connect/pair/ answered 200 (generate with an unknown payment_method: accepted); the sandbox answers 400',
  ],
];

describe('status rules', () => {
  it.each(STATUS_RULES.map(([check, ok, bad, text]) => ({ id: check.id, check, ok, bad, text })))(
    '$id passes $ok and fails $bad',
    ({ check, ok, bad, text }) => {
      expect(judge(check, ex(ok)).outcome).toBe('pass');
      expect(message(check, ex(bad))).toBe(text);
    },
  );

  it('an exact-refusal rule leaves an acceptance to the refusal check, and sandbox rules skip under the public profile', () => {
    expect(judge(pc.refused401, ex(200)).outcome).toBe('skip');
    expect(judge(pc.refused401, ex(403), publicCtx).outcome).toBe('skip');
    expect(judge(pc.otherIntegratorRefused, ex(200), publicCtx).outcome).toBe('skip');
  });
});

describe('pairing identities', () => {
  const id = (over: Partial<pc.PairingIdentity> = {}): pc.PairingIdentity => ({
    pay_connect_id: 'p-1',
    terminal_id: 't-1',
    client_id: 'c-1',
    client_secret: 's-1',
    webhook_secret_key: 'k-1',
    ...over,
  });
  const other = id({ pay_connect_id: 'p-2', terminal_id: 't-2', client_id: 'c-2', client_secret: 's-2', webhook_secret_key: 'k-2' });

  it('pairing.unique-id: different ids pass, a shared one fails', () => {
    expect(judge(pc.uniquePayConnectId, { a: id(), b: other }).outcome).toBe('pass');
    expect(message(pc.uniquePayConnectId, { a: id(), b: { ...other, pay_connect_id: 'p-1' } })).toBe(
      'two pairings share pay_connect_id "p-1"',
    );
  });

  it('pairing.own-terminal: nothing shared passes; a shared terminal and secret fail, named', () => {
    expect(judge(pc.ownTerminal, { a: id(), b: other }).outcome).toBe('pass');
    expect(message(pc.ownTerminal, { a: id(), b: { ...other, terminal_id: 't-1', client_secret: 's-1' } })).toBe(
      'two pairings share terminal_id, client_secret',
    );
    // Two pairings without webhook keys both carry null: that is no sharing.
    expect(judge(pc.ownTerminal, { a: id({ webhook_secret_key: null }), b: { ...other, webhook_secret_key: null } }).outcome).toBe('pass');
  });

  it("pairing.terminal-matches-config: the configuration's terminal passes; another fails", () => {
    expect(judge(pc.terminalMatchesConfig, { pairingTerminalId: '123', configTerminalId: '123' }).outcome).toBe('pass');
    expect(message(pc.terminalMatchesConfig, { pairingTerminalId: '123', configTerminalId: '999' })).toBe(
      'pairing terminal_id "123" != configuration terminal_id "999"',
    );
    // Whose configuration it is is the spec's rule: a failure on any target, the public profile's too.
    const r = judge(pc.terminalMatchesConfig, { pairingTerminalId: '123', configTerminalId: '999' }, publicCtx);
    expect(r.findings[0]).toMatchObject({ severity: 'failure', clause: 'spec#what-the-service-does' });
  });
});

describe('tokens and configuration', () => {
  it('auth.token-lifetime-honoured: no 401 passes; a 401 after renewing by expires_in fails', () => {
    expect(judge(pc.tokenLifetimeHonoured, { calls: [ex(200, '/v1/pay-connect/config/', 'GET')], expiresIn: '2' }).outcome).toBe('pass');
    expect(
      message(pc.tokenLifetimeHonoured, {
        calls: [ex(200, '/v1/pay-connect/config/', 'GET'), ex(401, '/v1/pay-connect/config/', 'GET')],
        expiresIn: '2',
      }),
    ).toBe(
      '1 of 2 bearer requests answered 401 with a token renewed by expires_in "2" (seconds): GET /v1/pay-connect/config/ answered 401',
    );
    expect(judge(pc.tokenLifetimeHonoured, { calls: [] }).outcome).toBe('skip');
  });

  it('auth.token-lifetime-honoured: a 401 on a token younger than its expires_in fails with its age; an older one is not judged', () => {
    const refused = ex(401, '/v1/pay-connect/transactions/generate/');
    const early = { exchange: refused, tokenAgeMs: 15_000, lifetimeMs: 3_600_000, tokenSeq: 2 };
    const r = judge(pc.tokenLifetimeHonoured, { calls: [refused], expiresIn: '3600', early });
    expect(r.findings[0]).toMatchObject({
      check: 'auth.token-lifetime-honoured',
      severity: 'warning',
      clause: 'sandbox#tokens',
      message: 'a bearer token answered 401 before the expires_in "3600" (seconds) it was issued with ran out',
    });
    expect(r.findings[0]!.evidence).toMatchObject({
      request: 'POST /v1/pay-connect/transactions/generate/ answered 401',
      tokenAgeMs: 15_000,
      expiresIn: '3600',
      refusedSeq: 7,
    });
    // Whatever the request: one message, so every refusal the early death causes is one defect.
    expect(
      message(pc.tokenLifetimeHonoured, {
        calls: [],
        expiresIn: '3600',
        early: { ...early, exchange: ex(401, '/v1/pay-connect/config/', 'GET'), tokenAgeMs: 20_000 },
      }),
    ).toBe(r.findings[0]!.message);
    expect(
      judge(pc.tokenLifetimeHonoured, { calls: [refused], expiresIn: '3600', early: { ...early, tokenAgeMs: 3_600_000 } }).outcome,
    ).toBe('skip');
    expect(judge(pc.tokenLifetimeHonoured, { calls: [refused], expiresIn: '3600', early }, publicCtx).outcome).toBe('skip');
  });

  it('config.payment-methods: a list with CARD passes; an empty one or one without CARD fails', () => {
    expect(judge(pc.paymentMethodsIncludeCard, { config: { payment_methods: [{ id: 'CARD' }, { id: 'TWINT' }] } }).outcome).toBe('pass');
    expect(message(pc.paymentMethodsIncludeCard, { config: { payment_methods: [] } })).toBe('payment_methods is empty');
    expect(message(pc.paymentMethodsIncludeCard, { config: { payment_methods: [{ id: 'TWINT' }] } })).toBe(
      'payment_methods ["TWINT"] do not include CARD',
    );
  });

  it('config.sandbox-values: EUR and Europe/Ljubljana pass; another currency fails', () => {
    expect(judge(pc.sandboxConfigValues, { config: { currency: 'EUR', timezone: 'Europe/Ljubljana' } }).outcome).toBe('pass');
    expect(message(pc.sandboxConfigValues, { config: { currency: 'USD', timezone: 'Europe/Ljubljana' } })).toBe(
      'currency "USD", the sandbox says EUR',
    );
  });

  it('config.payment-method-applied: the method given passes; another fails; no record skips', () => {
    expect(judge(pc.paymentMethodApplied, { requested: 'TWINT', record: { payment_method: 'TWINT' } }).outcome).toBe('pass');
    expect(message(pc.paymentMethodApplied, { requested: 'TWINT', record: { payment_method: 'CARD' } })).toBe(
      'payment_method "CARD", generate was given TWINT',
    );
    expect(judge(pc.paymentMethodApplied, { requested: 'TWINT' }).outcome).toBe('skip');
  });
});
