import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { TOKEN_AGE_SLACK_MS, TokenLog, diedEarly } from './token-log.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 24, 10, 0, 0) + ms).toISOString();
const token = (seq: number, startMs: number, expiresIn: unknown = '3600'): Exchange =>
  ({
    seq,
    operationId: 'getToken',
    startedAt: at(startMs),
    durationMs: 10,
    request: { method: 'POST', path: '/v1/auth/token/', headers: {} },
    response: { status: 200, headers: {}, body: { expires_in: expiresIn } },
  }) as unknown as Exchange;
const call = (seq: number, startMs: number, status = 401): Exchange =>
  ({
    seq,
    operationId: 'generateTransaction',
    startedAt: at(startMs),
    durationMs: 20,
    request: { method: 'POST', path: '/v1/pay-connect/transactions/generate/', headers: {} },
    response: { status, headers: {} },
  }) as unknown as Exchange;

describe('TokenLog', () => {
  it("ages a request's token from the latest token answered before it was sent, to the request's answer", () => {
    const log = new TokenLog();
    log.see(token(1, 0));
    log.see(token(5, 20_000));
    const age = log.ageAt(call(6, 15_000));
    expect(age).toMatchObject({ token: { seq: 1 }, ageMs: 15_020, lifetimeMs: 3_600_000 });
    expect(diedEarly(age)).toBe(true);
    expect(log.ageAt(call(7, 30_000))).toMatchObject({ token: { seq: 5 }, ageMs: 10_020 });
  });

  it('a token past its lifetime (within the slack) did not die early; no known token or no lifetime in seconds: not judged', () => {
    const log = new TokenLog();
    expect(log.ageAt(call(2, 100))).toBeUndefined();
    log.see(token(1, 0, '2'));
    expect(diedEarly(log.ageAt(call(2, 2_000 - TOKEN_AGE_SLACK_MS)))).toBe(false);
    expect(diedEarly(log.ageAt(call(2, 500)))).toBe(true);
    const odd = new TokenLog();
    odd.see(token(1, 0, 'one hour'));
    expect(diedEarly(odd.ageAt(call(2, 100)))).toBe(false);
  });

  it("a token a test asked for itself is not the client's", () => {
    const log = new TokenLog();
    log.see(token(1, 0));
    log.see(token(2, 10_000));
    log.explicit(2);
    expect(log.ageAt(call(3, 12_000))?.token.seq).toBe(1);
    log.see(call(4, 13_000, 200));
    expect(log.ageAt(call(5, 14_000))?.token.seq).toBe(1);
  });
});
