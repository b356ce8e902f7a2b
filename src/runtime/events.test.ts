import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CheckId, CheckInput } from '../checks/index.ts';
import type { Exchange } from '../core/index.ts';
import type { Finding } from '../core/index.ts';
import { type RuntimeEventMap, RuntimeEvents } from './events.ts';
import { Scope } from './scope.ts';
import { scopeHost } from './testing.ts';

/** A scope's host without a harness: what the narrow interface is for. */
const host = (disabledChecks: string[] = []) => scopeHost({ disabledChecks });

const finding: Finding = {
  check: 'response.enum',
  severity: 'failure',
  clause: 'spec#endpoints',
  message: 'GET /x: /status must be one of A, B',
};

describe('RuntimeEvents', () => {
  it('calls the listeners of an event kind with what it carries, until they unsubscribe', () => {
    const events = new RuntimeEvents();
    const seen: RuntimeEventMap['convergence'][] = [];
    const off = events.on('convergence', (e) => seen.push(e));
    events.on('finding', () => {
      throw new Error('a finding listener must not hear a convergence');
    });
    events.emit('convergence', { kind: 'transaction', elapsedMs: 12, timedOut: false });
    off();
    events.emit('convergence', { kind: 'operation', elapsedMs: 7, timedOut: true });
    expect(seen).toEqual([{ kind: 'transaction', elapsedMs: 12, timedOut: false }]);
  });

  it('a scope tells of each new finding of its test once, and not of a repeat an earlier test reported', () => {
    const h = host();
    const heard: RuntimeEventMap['finding'][] = [];
    h.events.on('finding', (e) => heard.push(e));
    const first = new Scope(h, 'payment > a');
    first.addFindings([finding, finding]);
    const second = new Scope(h, 'payment > b');
    second.addFindings([finding]);
    expect(heard.map((e) => [e.test, e.finding.check])).toEqual([['payment > a', 'response.enum']]);
    expect(second.findings).toEqual([]);
    expect(second.repeats.map((r) => r.root.test)).toEqual(['payment > a']);
  });

  it('a check the run disabled is neither run nor filed; the others still are', () => {
    const slip = { transaction_id: 't-1', amount: 100, tip_amount: 0, total_amount: 150, currency: 'euro' };
    const on = new Scope(host(), 'print-slip > a');
    expect(on.check('invariant.total-amount', { body: slip })).toBe(false);
    const off = new Scope(host(['invariant.total-amount']), 'print-slip > a');
    expect(off.check('invariant.total-amount', { body: slip })).toBe(true);
    expect(off.check('invariant.currency', { body: slip })).toBe(false);
    expect(off.findings.map((f) => f.check)).toEqual(['invariant.currency']);
    // An id no check has is still a bug of the toolkit, disabled or not.
    expect(() => off.checkRecorded('no.such-check', {})).toThrow(/unknown check id/);
  });

  it('scope.check knows each check by id and the input it takes (checked by tsc)', () => {
    expectTypeOf<CheckInput<'invariant.total-amount'>>().toEqualTypeOf<Exchange | { body: unknown }>();
    expectTypeOf<'response.schema'>().toMatchTypeOf<CheckId>();
    expectTypeOf<'no.such-check'>().not.toMatchTypeOf<CheckId>();
    const s = new Scope(host(), 't');
    // @ts-expect-error an id no check has does not compile
    expect(() => s.check('no.such-check', {})).toThrow(/unknown check id/);
  });
});

describe('an exchange with no operation of the contract', () => {
  const exchange = (path: string, operationId?: string): Exchange => ({
    seq: 1,
    ...(operationId ? { operationId } : {}),
    request: { method: 'GET', url: `http://127.0.0.1:9${path}`, path, headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: {}, rawBody: '{}' },
    startedAt: new Date().toISOString(),
    durationMs: 1,
  });

  it('is never silently unjudged: the test is not checked, naming the request and the likely cause', () => {
    const scope = new Scope(host(), 'config > unmatched');
    scope.recordExchange(exchange('/paycon/v1/pay-connect/config/'));
    expect([...scope.notChecked]).toEqual([
      'GET /paycon/v1/pay-connect/config/ matched no operation of the contract, so no check judged ' +
        "its answer (is the API mounted under another path than the target's?)",
    ]);
  });

  it('leaves a matched exchange to its checks', () => {
    const scope = new Scope(host(), 'config > matched');
    scope.recordExchange(exchange('/v1/pay-connect/config/', 'getConfiguration'));
    expect([...scope.notChecked]).toEqual([]);
  });
});
