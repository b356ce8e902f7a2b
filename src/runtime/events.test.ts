import { describe, expect, it } from 'vitest';
import { Redactor } from '../client/index.ts';
import type { Finding } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import type { RunContext } from './context.ts';
import { DefectLedger } from './defects.ts';
import { type RuntimeEventMap, RuntimeEvents } from './events.ts';
import { Scope, type ScopeHost } from './scope.ts';

/** A scope's host without a harness: what the narrow interface is for. */
function host(): ScopeHost {
  return {
    ctx: { strict: false, deadlineMs: 1000, settleMs: 0, sandbox: true, maxAmount: 100 } as RunContext,
    profile: resolveProfile('sandbox'),
    redactor: new Redactor(),
    defects: new DefectLedger(),
    events: new RuntimeEvents(),
    isShared: () => false,
    budgeted: (ms) => ms,
    judgeDeliveries: () => undefined,
    recordConvergence: () => undefined,
  };
}

const finding: Finding = { check: 'response.enum', severity: 'failure', clause: 'spec#endpoints', message: 'GET /x: /status must be one of A, B' };

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
});
