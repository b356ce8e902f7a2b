/**
 * Issue 39: the properties assert "must be refused" only of inputs a document calls invalid. A body is
 * never sent as invalid for breaking a constraint that is the contract's own (marked `x-ours`): the
 * empty or unusual `webhook_url` of a pairing (sandbox.md refuses only consumed, malformed or
 * never-valid OTPs; public-profile.md makes webhook_url optional) is no invalid body. Each invalid body
 * names the rule and the sentence that make it invalid, found verbatim under the clause it cites.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidArbitrary, oursConstraintsOf } from '../src/arbitraries/index.ts';
import { isUnder } from '../scripts/rules-doc-quotes.ts';
import { bodyOperations, invalidBodies } from '../suites/properties/bodies.ts';

const SAMPLES = 1500;

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const amountOk = (a: unknown) => Number.isInteger(a) && (a as number) >= 1 && (a as number) <= 99_999_999;

/**
 * A service that follows the documents and takes every liberty they leave: it refuses only what a
 * sentence refuses (a bad amount, a bad OTP, a payment method that is no id, a missing required field)
 * and accepts the rest, an empty webhook_url, a one-character name or an empty client_id among it.
 */
const LIBERAL: Readonly<Record<string, (b: Body) => boolean>> = {
  PairRequest: (b) => 'name' in b && typeof b.otp === 'string' && /^[0-9]{6}$/.test(b.otp) && b.otp !== '000000',
  TokenRequest: (b) => 'grant_type' in b && 'client_id' in b && 'client_secret' in b,
  GenerateRequest: (b) => amountOk(b.amount) && (b.payment_method === undefined || typeof b.payment_method === 'string'),
};
const liberallyAccepted = (schema: string, v: unknown) => isObject(v) && (LIBERAL[schema] ?? ((b: Body) => amountOk(b.amount)))(v);

describe('the invalid bodies of the properties', () => {
  it('never break only a constraint no document states (webhook_url pattern or format, name or credential lengths)', () => {
    const ours: string[] = [];
    for (const op of bodyOperations()) {
      const arb = invalidBodies(op);
      if (!arb) continue;
      for (const v of fc.sample(arb, { numRuns: SAMPLES, seed: 39 })) {
        if (/^(pattern mismatch|bad uri) at webhook_url$|^too short at /.test(v.reason) || v.ours)
          ours.push(`${op.operationId}: ${v.reason}`);
      }
    }
    expect([...new Set(ours)]).toEqual([]);
  });

  it('are all refused by a service that follows the documents liberally (one that takes webhook_url "" is never blamed)', () => {
    const blamed: string[] = [];
    for (const op of bodyOperations()) {
      const arb = invalidBodies(op);
      if (!arb) continue;
      for (const v of fc.sample(arb, { numRuns: SAMPLES, seed: 39 })) {
        if (liberallyAccepted(op.requestSchema as string, v.value))
          blamed.push(`${op.operationId}: ${v.reason}: ${JSON.stringify(v.value)}`);
      }
    }
    expect(blamed.slice(0, 5)).toEqual([]);
    // The body: a legal pairing, so nothing like it is an invalid body.
    expect(liberallyAccepted('PairRequest', { name: '𐩐ଦ', otp: '051060', webhook_url: '' })).toBe(true);
  });

  it('name the rule and the sentence that make each body invalid, found verbatim under the clause cited', () => {
    const cited = new Map<string, string>();
    for (const op of bodyOperations()) {
      const arb = invalidBodies(op);
      if (!arb) continue;
      for (const v of fc.sample(arb, { numRuns: 300, seed: 39 })) {
        expect(v.basis, `${op.operationId}: ${v.reason}`).toBeDefined();
        expect(v.basis!.rule).toBe('request.invalid-rejected');
        expect(v.basis!.quote.length).toBeGreaterThan(0);
        for (const q of v.basis!.quote) expect(isUnder(q, v.basis!.clause), `${v.basis!.clause}: ${q}`).toBe(true);
        cited.set(`${op.operationId} ${v.reason.replace(/ at .*| required .*/, '')}`, v.basis!.clause);
      }
    }
    expect(cited.get('pair pattern mismatch')).toBe('sandbox#pairing');
    expect(cited.get('generateTransaction below minimum')).toBe('sandbox#transactions');
    expect(cited.get('pair missing')).toBe('profile#endpoints-the-spec-refers-to-but-does-not-show');
  });

  it("still knows the contract's own constraints: marked x-ours, and labelled so among the schema's invalid variants", () => {
    const ours = oursConstraintsOf().map((c) => `${c.schema}.${c.field} ${c.keyword}`);
    expect(ours).toEqual(
      expect.arrayContaining(['PairRequest.webhook_url pattern', 'PairRequest.webhook_url format', 'PairRequest.name minLength']),
    );
    const labelled = fc
      .sample(invalidArbitrary('PairRequest'), { numRuns: 2000, seed: 39 })
      .filter((v) => v.ours)
      .map((v) => v.reason);
    expect(new Set(labelled)).toEqual(new Set(['pattern mismatch at webhook_url', 'bad uri at webhook_url']));
  });
});
