/** Test helpers of this folder. Not exported by the barrel, not built. */
import { Redactor } from '../client/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { DefectLedger } from './defects.ts';
import { RuntimeEvents } from './events.ts';
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
