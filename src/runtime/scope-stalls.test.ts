/**
 * A convergence that missed its deadline while the harness stood still through much of it is measured
 * again before it is judged; one the harness did not stand still through is judged as it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor, createPayConnectClient } from '../client/index.ts';
import { sendJson, startTestServer, type TestServer } from '../client/test-server.ts';
import { resolveProfile } from '../profile/index.ts';
import type { RunContext } from './run-context.ts';
import { DefectLedger } from './defects.ts';
import { RuntimeEvents } from './events.ts';
import { Pairing } from './pairing.ts';
import { Scope, type ScopeHost } from './scope.ts';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (let close = open.pop(); close; close = open.pop()) await close();
});

/** A service whose transaction is IN_PROGRESS for `finalAfterMs`, then SUCCESS. */
async function service(finalAfterMs: number): Promise<TestServer> {
  const started = Date.now();
  const server = await startTestServer((_req, res) => {
    sendJson(res, {
      transaction_id: 'tx-1',
      status: Date.now() - started < finalAfterMs ? 'IN_PROGRESS' : 'SUCCESS',
      amount: 100,
      tip_amount: 0,
      total_amount: 100,
      currency: 'EUR',
    });
  });
  open.push(() => server.close());
  return server;
}

function host(lostMs: number): ScopeHost {
  return {
    ctx: { strict: false, deadlineMs: 300, settleMs: 0, sandbox: true, maxAmount: 100, timeoutMs: 2000 } as RunContext,
    profile: resolveProfile('sandbox'),
    redactor: new Redactor(),
    defects: new DefectLedger(),
    events: new RuntimeEvents(),
    isShared: () => false,
    lostDuring: () => lostMs,
    budgeted: (ms) => ms,
    judgeDeliveries: () => undefined,
    recordConvergence: () => undefined,
  };
}

function pairing(url: string): Pairing {
  const client = createPayConnectClient({
    baseUrl: url,
    integratorId: 'i',
    tokenSource: async () => ({ access_token: 'tok', expires_in: '3600' }),
  });
  open.push(() => client.close());
  return new Pairing(
    'p',
    { client_id: 'c', client_secret: 's', pay_connect_id: 'pc', pay_connect_name: 'n', terminal_id: 't', webhook_secret_key: null },
    client,
    undefined,
    false,
    'vault',
  );
}

describe('a wait the harness stood still through', () => {
  it('is measured again, with the lost time given back, and judged on what that shows', async () => {
    const server = await service(600);
    const scope = new Scope(host(250), 'payment > stalled');
    const obs = await scope.converge(pairing(server.url), 'transaction', 'tx-1');
    expect(obs.finalByPoll).toBe('SUCCESS');
    expect(obs.timedOut).toBe(false);
    expect(scope.findings).toEqual([]);
    expect(scope.remeasured).toEqual([{ what: 'transaction tx-1', lostMs: 250, waitMs: 300 }]);
    expect(obs.polled.map((s) => s.status)).toEqual(['IN_PROGRESS', 'SUCCESS']);
  });

  it('is judged as it is when the harness lost little of it', async () => {
    const server = await service(60_000);
    const scope = new Scope(host(10), 'payment > quiet');
    const obs = await scope.converge(pairing(server.url), 'transaction', 'tx-1');
    expect(obs.timedOut).toBe(true);
    expect(scope.remeasured).toEqual([]);
    expect(scope.findings.map((f) => f.check)).toContain('convergence.deadline');
  });
});
