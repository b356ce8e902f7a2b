/** An exchange the contract has no operation for is never silently unjudged: the test says what it could not check. */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../client/index.ts';
import type { Exchange } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import type { RunContext } from './run-context.ts';
import { DefectLedger } from './defects.ts';
import { RuntimeEvents } from './events.ts';
import { Scope, type ScopeHost } from './scope.ts';

const host: ScopeHost = {
  ctx: { strict: false, deadlineMs: 300, settleMs: 0, sandbox: true, maxAmount: 100, timeoutMs: 2000 } as RunContext,
  profile: resolveProfile('sandbox'),
  redactor: new Redactor(),
  defects: new DefectLedger(),
  events: new RuntimeEvents(),
  isShared: () => false,
  lostDuring: () => 0,
  budgeted: (ms) => ms,
  judgeDeliveries: () => undefined,
  recordConvergence: () => undefined,
};

const exchange = (path: string, operationId?: string): Exchange => ({
  seq: 1, ...(operationId ? { operationId } : {}),
  request: { method: 'GET', url: `http://127.0.0.1:9${path}`, path, headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: {}, rawBody: '{}' },
  startedAt: new Date().toISOString(), durationMs: 1,
});

describe('an exchange with no operation of the contract', () => {
  it('makes the test not checked, naming the request and the likely cause', () => {
    const scope = new Scope(host, 'config > unmatched');
    scope.recordExchange(exchange('/paycon/v1/pay-connect/config/'));
    expect([...scope.notChecked]).toEqual([
      'GET /paycon/v1/pay-connect/config/ matched no operation of the contract, so no check judged its answer (is the API mounted under another path than the target\'s?)',
    ]);
  });

  it('leaves a matched exchange to its checks', () => {
    const scope = new Scope(host, 'config > matched');
    scope.recordExchange(exchange('/v1/pay-connect/config/', 'getConfiguration'));
    expect([...scope.notChecked]).toEqual([]);
  });
});
