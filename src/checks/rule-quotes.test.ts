/**
 * Every rule quotes the sentence it enforces: each quote stands verbatim in the documents bundled in
 * contracts/spec/ (white space aside), the rule's clause is a heading its first sentence is under, and a
 * rule no sentence states is a named assumption that never fails a run without --strict.
 */
import { describe, expect, it } from 'vitest';
import { isUnder, locate } from '../../scripts/rules-doc-quotes.ts';
import type { Exchange } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import * as probes from './probes.ts';
import { WEBHOOK_ENDPOINT_RULES } from './receiver-rules.ts';
import { runCheck } from './registry.ts';
import { PROFILE_ENDPOINT_ROWS, RULE_ASSUMPTIONS, RULE_QUOTES, SENTENCE } from './rule-quotes.ts';
import { RULES, listRules } from './rule-registry.ts';

const answered = (status: number): Exchange =>
  ({
    seq: 7,
    request: { method: 'POST', path: '/v1/pay-connect/pair/', headers: {} },
    response: { status, headers: {}, body: {}, rawBody: '{}' },
  }) as unknown as Exchange;
const ctx = { profile: resolveProfile('sandbox'), strict: false };

describe("the rules' quotes", () => {
  it('give every rule a quote, or name it an assumption (never both)', () => {
    const lacking = [...RULES.values()].filter((r) => (r.quote ?? []).length === 0 && !r.assumption).map((r) => r.id);
    const both = [...RULES.values()].filter((r) => (r.quote ?? []).length > 0 && r.assumption).map((r) => r.id);
    expect(lacking).toEqual([]);
    expect(both).toEqual([]);
    // No quote or assumption for a rule that does not exist.
    expect([...Object.keys(RULE_QUOTES), ...Object.keys(RULE_ASSUMPTIONS)].filter((id) => !RULES.has(id))).toEqual([]);
  });

  it('finds every quoted sentence verbatim in pay-connect-spec.md, public-profile.md or sandbox.md', () => {
    const missing = [...Object.values(SENTENCE), ...Object.values(RULE_QUOTES).flat()].filter((q) => locate(q).length === 0);
    expect(missing).toEqual([]);
  });

  it("cites as each rule's clause a heading its first sentence stands under", () => {
    const wrong = listRules()
      .filter((r) => r.quote.length > 0 && !isUnder(r.quote[0]!, r.clause))
      .map(
        (r) =>
          `${r.id}: ${r.clause}, but its sentence is under ${locate(r.quote[0]!)
            .map((l) => `${l.source}#${l.anchors[0]}`)
            .join(', ')}`,
      );
    expect(wrong).toEqual([]);
  });

  it('keeps an assumption a warning at most (a failure only with --strict), named and explained', () => {
    for (const r of listRules().filter((x) => x.assumption)) {
      expect(r.source, r.id).not.toBe('spec');
      expect(r.assumption!.name.length, r.id).toBeGreaterThan(3);
      expect(r.assumption!.assumes.length, r.id).toBeGreaterThan(20);
    }
  });

  it('would catch a quote that is not in the documents, and a clause its sentence is not under', () => {
    expect(locate('A consumed, malformed or never-valid OTP answers 418.')).toEqual([]);
    expect(locate(SENTENCE.otpRefused)).toEqual([{ source: 'sandbox', anchors: ['pairing', 'the-pay-connect-sandbox-profile'] }]);
    expect(isUnder(SENTENCE.otpRefused, 'sandbox#pairing')).toBe(true);
    expect(isUnder(SENTENCE.otpRefused, 'sandbox#transactions')).toBe(false);
    // Across a line break of the document: only white space is normalised.
    expect(locate(SENTENCE.amountRange.replace(' anything', '\n  anything'))).toHaveLength(1);
  });
});

describe('a finding', () => {
  it("carries its rule's quote", () => {
    const r = runCheck(probes.bearerRequired, answered(200), ctx);
    expect(r.findings[0]!.quote).toEqual(RULE_QUOTES['auth.bearer-required']);
    expect(WEBHOOK_ENDPOINT_RULES.every((rule) => rule.quote.length > 0 || RULE_ASSUMPTIONS[rule.id])).toBe(true);
  });

  it("of a request the scenario needs cites the spec for a spec endpoint, the profile's row (a warning) for one the spec does not show", () => {
    const of = (operationId: string, path: string) =>
      ({ ...answered(201), operationId, request: { method: 'POST', path, headers: {} } }) as unknown as Exchange;
    const refund = runCheck(probes.acceptedOk, of('independentRefund', '/v1/pay-connect/transactions/refund/'), ctx).findings[0]!;
    expect(refund).toMatchObject({
      clause: 'profile#endpoints-the-spec-refers-to-but-does-not-show',
      severity: 'warning',
      quote: [PROFILE_ENDPOINT_ROWS.independentRefund],
    });
    expect(isUnder(PROFILE_ENDPOINT_ROWS.independentRefund!, refund.clause)).toBe(true);
    const generate = runCheck(probes.acceptedOk, of('generateTransaction', '/v1/pay-connect/transactions/generate/'), ctx).findings[0]!;
    expect(generate).toMatchObject({ clause: 'spec#endpoints', severity: 'failure', quote: RULE_QUOTES['request.accepted'] });
    for (const row of Object.values(PROFILE_ENDPOINT_ROWS))
      expect(isUnder(row, 'profile#endpoints-the-spec-refers-to-but-does-not-show'), row).toBe(true);
  });

  it("of an invalid input cites the sentence that makes it invalid, with its clause and its document's weight", () => {
    const otp = { clause: 'sandbox#pairing', quote: [SENTENCE.otpRefused] };
    const r = runCheck(probes.invalidRejected, { exchange: answered(200), because: otp }, ctx);
    expect(r.findings[0]).toMatchObject({
      check: 'request.invalid-rejected',
      clause: 'sandbox#pairing',
      quote: [SENTENCE.otpRefused],
      severity: 'warning',
    });
    expect(runCheck(probes.invalidRejected, { exchange: answered(400), because: otp }, ctx).outcome).toBe('pass');
    // Given the exchange alone: the rule's own clause and quote (the amounts).
    expect(runCheck(probes.invalidRejected, answered(201), ctx).findings[0]).toMatchObject({
      clause: 'sandbox#transactions',
      quote: RULE_QUOTES['request.invalid-rejected'],
    });
  });
});
