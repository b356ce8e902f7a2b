/**
 * For each capability folder, a fault switch makes one of its own tests fail with a finding that
 * names the clause. Capabilities whose rules all come from the profiles fail only under --strict.
 * (The stateful suite has its own test: test/stateful.test.ts.)
 */
import { describe, expect, test } from 'vitest';
import { runCli } from './support/run-cli.ts';

interface Case {
  fault: string;
  check: string;
  clause: string;
  strict?: boolean;
  grep?: string;
}

const CASES: Record<string, Case> = {
  pairing: { fault: 'pair.otp-reuse', check: 'pairing.otp-one-time', clause: 'spec#post-v1pay-connectpair' },
  auth: {
    fault: 'auth.bearer-not-enforced',
    check: 'auth.bearer-required',
    clause: 'spec#authentication',
    grep: 'getConfig|without a bearer',
  },
  config: { fault: 'config.missing-payment-methods', check: 'response.schema', clause: 'spec#configuration' },
  payment: {
    fault: 'slip.total-mismatch',
    check: 'invariant.total-amount',
    clause: 'spec#transaction-print-slip',
    grep: 'generate and converge',
  },
  cancel: { fault: 'cancel.final-accepted', check: 'sandbox.cancel-final', clause: 'sandbox#transactions', strict: true, grep: 'final' },
  preauth: {
    fault: 'operation.missing-operation-id',
    check: 'response.schema',
    clause: 'spec#operation-reference-result-of-preauthorization-operations',
  },
  'print-slip': { fault: 'slip.missing-digital-slip', check: 'response.schema', clause: 'spec#transaction-print-slip', grep: 'SUCCESS' },
  webhooks: { fault: 'webhook.disagrees-with-polling', check: 'webhook.agrees-with-polling', clause: 'spec#events' },
  isolation: { fault: 'isolation.leak', check: 'isolation.foreign-id', clause: 'sandbox#isolation', strict: true },
  refund: { fault: 'refund.tagged-charge', check: 'refund.tagged', clause: 'profile#rules-of-behaviour', strict: true },
  properties: {
    fault: 'generate.accepts-zero-amount',
    check: 'request.invalid-rejected',
    clause: 'sandbox#transactions',
    strict: true,
    grep: 'generateTransaction',
  },
};

describe.concurrent('each capability has a fault that fails one of its tests, naming the clause', () => {
  for (const [capability, c] of Object.entries(CASES)) {
    test(`${capability}: ${c.fault}`, async () => {
      const r = await runCli([
        'run',
        '--no-html',
        '--suite',
        capability,
        '--sim-fault',
        c.fault,
        ...(c.strict ? ['--strict'] : []),
        ...(c.grep ? ['--grep', c.grep] : []),
      ]);
      expect(r.code, r.stderr).toBe(1);
      // Tests of a capability run at once: whichever judged first leads, so any of the check's failures may name the clause.
      const hits = r.summary!.findings.filter(
        (f) => f.check === c.check && f.severity === 'failure' && f.test.startsWith(`${capability} > `),
      );
      expect(hits.length, JSON.stringify(r.summary!.findings.map((f) => [f.check, f.clause, f.test]).slice(0, 8))).toBeGreaterThan(0);
      expect(hits.map((h) => h.clause)).toContain(c.clause);
      expect(r.summary!.counts.failed).toBeGreaterThan(0);
    });
  }
});
