/**
 * Unit tests of the automatic response checks (against the contract's schemas) and the status probes:
 * for each, an answer it passes and one it fails.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import type { Check, CheckContext } from './check.ts';
import * as probes from './probes.ts';
import { operationFor, runAutoChecks, runCheck, WAITED_OUT } from './registry.ts';
import { contentTypeJson, responseEnum, responseFormat, responseSchema, statusDocumented, timeWithinLimit } from './response-checks.ts';

function exchange(method: string, path: string, status: number, body?: unknown, contentType = 'application/json'): Exchange {
  const rawBody = body === undefined ? '' : JSON.stringify(body);
  return {
    seq: 1,
    request: { method, path, headers: {} },
    response: { status, headers: { 'content-type': contentType }, body, rawBody },
  } as unknown as Exchange;
}
const ctxFor = (ex: Exchange, strict = false): CheckContext => ({
  profile: resolveProfile('sandbox'),
  strict,
  operation: operationFor(ex.request.method, ex.request.path),
});
const judge = (check: Check<Exchange>, ex: Exchange, strict = false) => runCheck(check, ex, ctxFor(ex, strict));

const token = { access_token: 'a', expires_in: '3600', token_type: 'Bearer', scope: 'default' };

describe('response checks', () => {
  it('response.time-within-limit: off without --max-response-time (no document sets a limit); with it, an answer slower than the limit fails', () => {
    const slow = { ...exchange('POST', '/v1/pay-connect/pair/', 400, { error: 'invalid otp' }), durationMs: 3100 } as Exchange;
    const off = runCheck(timeWithinLimit, slow, ctxFor(slow));
    expect(off.outcome).toBe('skip');
    expect(off.reason).toMatch(/^opt-in: no --max-response-time given/);
    expect(runCheck(timeWithinLimit, slow, { ...ctxFor(slow), maxResponseTimeMs: 5000 }).outcome).toBe('pass');
    const r = runCheck(timeWithinLimit, slow, { ...ctxFor(slow), maxResponseTimeMs: 2000 });
    expect(r.findings.map((f) => [f.severity, f.message])).toEqual([
      ['warning', 'pair answered 400 after 3100 ms; --max-response-time is 2000 ms'],
    ]);
    expect(runCheck(timeWithinLimit, slow, { ...ctxFor(slow, true), maxResponseTimeMs: 2000 }).findings[0]!.severity).toBe('failure');
  });

  it('response.schema: a body of the schema passes; a missing required field fails, naming the schema', () => {
    expect(judge(responseSchema, exchange('POST', '/v1/auth/token/', 200, token)).outcome).toBe('pass');
    const r = judge(responseSchema, exchange('POST', '/v1/auth/token/', 200, { ...token, access_token: undefined }));
    expect(r.outcome).toBe('fail');
    expect(r.findings[0]!.message).toMatch(/^getToken 200: body does not match TokenResult: .*access_token/);
    expect(r.findings[0]!.severity).toBe('failure');
  });

  it('response.enum: a value outside the enum fails as its own class (not as response.schema)', () => {
    const bad = exchange('POST', '/v1/auth/token/', 200, { ...token, token_type: 'bearer' });
    expect(judge(responseEnum, bad).findings[0]!.message).toMatch(/token_type.*Bearer/);
    expect(judge(responseSchema, bad).outcome).toBe('pass');
    expect(judge(responseEnum, exchange('POST', '/v1/auth/token/', 200, token)).outcome).toBe('pass');
  });

  it('response.format: a bad date-time fails, a good one passes', () => {
    const created = { transaction_id: 't', status: 'SUCCESS' };
    const path = '/v1/pay-connect/transactions/t-1/status/';
    const ok = judge(responseFormat, exchange('GET', path, 200, { ...created, created_at: '2026-11-24T10:00:00Z' }));
    const bad = judge(responseFormat, exchange('GET', path, 200, { ...created, created_at: 'yesterday' }));
    expect(bad.outcome).toBe('fail');
    expect(bad.findings[0]!.message).toMatch(/created_at/);
    expect(ok.outcome).not.toBe('fail');
  });

  it('response.status-documented: a documented status passes, another fails naming the documented ones', () => {
    expect(judge(statusDocumented, exchange('POST', '/v1/auth/token/', 200, token)).outcome).toBe('pass');
    const r = judge(statusDocumented, exchange('POST', '/v1/auth/token/', 418, {}));
    expect(r.findings[0]!.message).toMatch(/^getToken answered 418; documented: 200/);
  });

  it('an answer that asked to wait and was waited out (429/503 with Retry-After, then a re-send) is judged by no automatic check', () => {
    const status = '/v1/pay-connect/transactions/t-1/status/';
    const asked = {
      ...exchange('GET', status, 429, 'slow down', 'text/plain'),
      retryAfter: { status: 429, waitMs: 1000, honoured: true, inARow: 1 },
    } as Exchange;
    const runs = runAutoChecks(asked, { profile: resolveProfile('sandbox'), strict: false });
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.outcome === 'skip' && r.reason === WAITED_OUT && r.findings.length === 0)).toBe(true);
    // The same 429 taken as the answer (the client stopped waiting) is judged as any other, and says why.
    const kept = {
      ...asked,
      retryAfter: { status: 429, waitMs: 1000, honoured: false, inARow: 4, reason: 'still asked to wait after 3 re-sends' },
    } as Exchange;
    const judged = runAutoChecks(kept, { profile: resolveProfile('sandbox'), strict: false }).flatMap((r) => r.findings);
    expect(judged.map((f) => f.check).sort()).toEqual(['response.content-type', 'response.status-documented']);
    expect(judged.find((f) => f.check === 'response.status-documented')!.message).toBe(
      'getTransactionStatus answered 429; documented: 200, 400, 401, 404 (it kept answering 429 with ' +
        'Retry-After (4 times in a row), and the client stopped waiting: still asked to wait after 3 re-sends)',
    );
    // A 429 without Retry-After asked nothing: judged as today.
    expect(
      runAutoChecks(exchange('GET', status, 429, {}), { profile: resolveProfile('sandbox'), strict: false }).some(
        (r) => r.outcome === 'fail',
      ),
    ).toBe(true);
  });

  it('response.content-type: JSON (and +json) passes; text/plain fails; an empty body is skipped', () => {
    expect(judge(contentTypeJson, exchange('POST', '/v1/auth/token/', 200, token)).outcome).toBe('pass');
    expect(judge(contentTypeJson, exchange('POST', '/v1/auth/token/', 400, { detail: 'x' }, 'application/problem+json')).outcome).toBe(
      'pass',
    );
    const r = judge(contentTypeJson, exchange('POST', '/v1/auth/token/', 200, token, 'text/plain'));
    expect(r.findings[0]!.message).toBe('getToken 200: content-type is "text/plain", not application/json');
    expect(judge(contentTypeJson, exchange('POST', '/v1/pay-connect/unpair/', 204)).outcome).toBe('skip');
  });
});

/** Each status probe: a status it accepts and one it refuses. */
const PROBES: [Check<Exchange>, number, number][] = [
  [probes.bearerRequired, 401, 200],
  [probes.invalidTokenRefused, 401, 200],
  [probes.integratorRequired, 400, 200],
  [probes.tokenWithoutIntegrator, 200, 400],
  [probes.revokedAfterUnpair, 401, 200],
  [probes.otpOneTime, 400, 200],
  [probes.foreignIdRefused, 404, 200],
  [probes.foreignIdNotFound, 404, 403],
  [probes.unknownIdNotFound, 404, 500],
  [probes.busyConflict, 409, 200],
  [probes.cancelFinalRefused, 400, 200],
  [probes.slipFinalOnly, 400, 200],
  [probes.invalidRejected, 422, 500],
  [probes.validAccepted, 409, 400],
  [probes.acceptedOk, 200, 409],
];

describe('status probes', () => {
  it.each(PROBES.map(([check, ok, bad]) => ({ id: check.id, check, ok, bad })))(
    '$id passes $ok and fails $bad, saying what it expected',
    ({ check, ok, bad }) => {
      expect(judge(check, exchange('GET', '/v1/pay-connect/config/', ok, {})).outcome).toBe('pass');
      const r = judge(check, exchange('GET', '/v1/pay-connect/config/', bad, {}));
      expect(r.outcome).toBe('fail');
      expect(r.findings[0]!.message).toMatch(new RegExp(`^GET /v1/pay-connect/config/ answered ${bad}; expected `));
    },
  );

  it('every probe of probes.ts is in the table above', () => {
    const ids = Object.values(probes)
      .filter((v) => typeof v === 'object' && v !== null && 'run' in v)
      .map((c) => (c as Check<Exchange>).id);
    expect(PROBES.map(([c]) => c.id).sort()).toEqual(ids.sort());
  });
});
