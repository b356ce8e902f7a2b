/** Test helpers of this folder. Not exported by the barrel, not built. */
import { Redactor, createPayConnectClient } from '../client/index.ts';
import { resolveProfile } from '../profile/index.ts';
import type { WebhookReceiver } from '../webhooks/index.ts';
import { DefectLedger } from './defects.ts';
import { RuntimeEvents } from './events.ts';
import { Pairing } from './pairing.ts';
import type { RunContext } from './run-context.ts';
import type { ScopeHost } from './scope.ts';

/** A scope's host without a harness (the narrow interface is for this): a sandbox profile, the run's `ctx` over a few defaults. */
export function scopeHost(ctx: Partial<RunContext>): ScopeHost {
  return {
    ctx: { strict: false, deadlineMs: 1000, settleMs: 0, sandbox: true, maxAmount: 100, ...ctx } as RunContext,
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
}

/**
 * A pairing with the service at `url` (a fixed token, made-up credentials); `rx`, when given, its
 * receiver, whose deliveries are then observable. `closers` gets the client's close.
 */
export function testPairing(url: string, closers: Array<() => Promise<void>>, rx?: WebhookReceiver): Pairing {
  const client = createPayConnectClient({
    baseUrl: url,
    integratorId: 'i',
    tokenSource: async () => ({ access_token: 'tok', expires_in: '3600' }),
  });
  closers.push(() => client.close());
  const creds = {
    client_id: 'c',
    client_secret: 's',
    pay_connect_id: 'pc',
    pay_connect_name: 'n',
    terminal_id: 't',
    webhook_secret_key: rx ? 'k' : null,
  };
  return new Pairing('p', creds, client, rx, rx !== undefined, 'vault');
}
