/**
 * What a correct harness reports for each simulator fault switch: the suites that exercise the rule,
 * and the findings (check id and severity) that must appear. Legal faults must leave a run clean.
 * Severity follows the rule's source: the spec fails, the profiles warn.
 */
export interface FaultExpectation {
  suites: string[];
  /** Findings that must be present. */
  expect: { check: string; severity: 'failure' | 'warning' }[];
  /** Extra run options (e.g. a shorter deadline). */
  args?: string[];
}

const F = 'failure' as const;
const W = 'warning' as const;
const e = (suites: string[], ...expect: [string, 'failure' | 'warning'][]): FaultExpectation => ({ suites, expect: expect.map(([check, severity]) => ({ check, severity })) });

export const BREAKS: Record<string, FaultExpectation> = {
  'slip.missing-digital-slip': e(['print-slip'], ['response.schema', F]),
  'slip.amount-as-string': e(['print-slip'], ['response.schema', F]),
  'slip.bad-created-at': e(['print-slip'], ['response.format', F]),
  'slip.bad-digital-slip-uri': e(['print-slip'], ['response.format', F]),
  'slip.total-mismatch': e(['print-slip'], ['invariant.total-amount', F]),
  'slip.bad-currency': e(['print-slip'], ['invariant.currency', F]),
  'slip.bad-country': e(['print-slip'], ['invariant.country', F]),
  'slip.status-outside-enum': e(['print-slip'], ['response.enum', F], ['print-slip.agrees-with-status', W]),
  'slip.bad-payment-method': e(['print-slip'], ['response.enum', F]),
  'slip.bad-tag': e(['print-slip'], ['response.enum', F]),
  'slip.currency-disagrees-config': e(['print-slip'], ['print-slip.matches-config', W]),
  'slip.nonfinal-200': e(['print-slip'], ['print-slip.final-only', W]),
  'token.expires-in-number': e(['auth'], ['response.schema', F]),
  'token.type-lowercase': e(['auth'], ['response.enum', F]),
  'config.missing-payment-methods': e(['config'], ['response.schema', F]),
  'pair.missing-webhook-key': e(['pairing'], ['response.schema', F], ['pairing.webhook-key', W]),
  'pair.name-not-echoed': e(['pairing'], ['pairing.name-echoed', F]),
  'pair.otp-reuse': e(['pairing'], ['pairing.otp-one-time', F]),
  'generate.server-error': e(['payment', 'properties'], ['request.accepted', F], ['request.valid-accepted', W], ['response.status-documented', W]),
  'generate.missing-transaction-id': e(['payment'], ['response.schema', F]),
  'operation.missing-operation-id': e(['preauth'], ['response.schema', F]),
  'auth.bearer-not-enforced': e(['auth'], ['auth.bearer-required', F], ['auth.refused-401', W]),
  'auth.invalid-token-accepted': e(['auth'], ['auth.invalid-token-refused', F], ['auth.refused-401', W]),
  'auth.integrator-not-enforced': e(['auth'], ['auth.integrator-required', F], ['auth.integrator-missing-400', W], ['auth.other-integrator-refused', W]),
  'auth.token-requires-integrator': e(['auth'], ['auth.token-without-integrator', F]),
  'auth.unpair-not-revoking': e(['pairing'], ['auth.revoked-after-unpair', W]),
  'transition.final-changes': e(['payment'], ['transition.legal', W]),
  'transaction.never-converges': { ...e(['payment'], ['convergence.deadline', F]), args: ['--deadline', '3s'] },
  // No valid delivery ever arrives, so each convergence waits out the deadline for one.
  'webhook.unsigned': { ...e(['payment'], ['webhook.signature', W]), args: ['--deadline', '3s'] },
  'webhook.bad-signature': { ...e(['payment'], ['webhook.signature', W]), args: ['--deadline', '3s'] },
  'webhook.disagrees-with-polling': e(['webhooks'], ['webhook.agrees-with-polling', F]),
  'webhook.bad-schema': e(['webhooks'], ['webhook.schema', W]),
  'webhook.none': { ...e(['webhooks'], ['webhook.delivered', W], ['webhook.every-status-posted', W]), args: ['--deadline', '3s'] },
  'isolation.leak': e(['isolation'], ['isolation.foreign-id', F]),
  'status.unknown-id-500': e(['isolation'], ['errors.unknown-id', W], ['isolation.not-found', W], ['response.status-documented', W]),
  'content-type.text-plain': e(['config'], ['response.content-type', F]),
  'error.non-json': e(['print-slip'], ['response.content-type', F]),
  'generate.accepts-zero-amount': e(['payment'], ['request.invalid-rejected', W]),
  'cancel.final-accepted': e(['cancel'], ['sandbox.cancel-final', W]),
  'busy.no-409': e(['payment'], ['sandbox.busy', W]),
  'preauth.increment-after-complete-succeeds': e(['preauth'], ['sandbox.operation-outcome', W]),
  'tip.ignored': e(['payment'], ['sandbox.outcome', W]),
  'auth.any-secret-accepted': e(['auth'], ['auth.bad-credentials-refused', F]),
  'auth.credentials-survive-unpair': e(['pairing'], ['auth.credentials-revoked-after-unpair', W]),
  'token.expires-early': e(['auth'], ['auth.token-lifetime-honoured', W]),
  'auth.token-refuses-integrator': e(['auth'], ['auth.token-with-integrator', W]),
  'config.no-card': e(['config'], ['config.payment-methods', W]),
  'config.wrong-timezone': e(['config'], ['config.sandbox-values', W]),
  'generate.listed-method-refused': e(['config'], ['config.payment-method-accepted', W]),
  'generate.unknown-method-accepted': e(['config'], ['config.unknown-payment-method-refused', W]),
  'generate.payment-method-ignored': e(['config', 'payment'], ['config.payment-method-applied', W], ['sandbox.payment-method', W]),
  'operation.wrong-type': e(['preauth'], ['operation.record-matches', W]),
  'pair.bad-otp-accepted': e(['pairing'], ['pairing.bad-otp-refused', W]),
  'pair.bad-otp-401': e(['pairing'], ['pairing.bad-otp-400', W]),
  'pair.shared-terminal-id': e(['pairing'], ['pairing.own-terminal', W]),
  'config.other-terminal-id': e(['config'], ['pairing.terminal-matches-config', W]),
  'pair.shared-pay-connect-id': e(['pairing'], ['pairing.unique-id', F]),
  'unpair.refused': e(['pairing'], ['pairing.unpair-accepted', W]),
  'preauth.ops-on-any-transaction': e(['preauth'], ['preauth.authorized-only', W]),
  'preauth.complete-keeps-amount': e(['preauth'], ['preauth.completed-amount', W]),
  'slip.unsuccessful-final-400': e(['payment'], ['print-slip.final-available', W]),
  'refund.non-success-accepted': e(['refund'], ['refund.success-only', W]),
  'refund.tagged-charge': e(['refund'], ['refund.tagged', W]),
  'refund.total-unchanged': e(['refund'], ['refund.total-grows', W]),
  'refund.above-remainder-accepted': e(['refund'], ['refund.within-remainder', W]),
  'revert.older-accepted': e(['refund'], ['revert.latest-only', W]),
  'revert.no-reverted-at': e(['refund'], ['revert.reverted', W]),
  'cancel.final-stamps-canceled-at': e(['cancel'], ['sandbox.cancel-final-unchanged', W]),
  // With the default 20 ms steps the harness's cancel can arrive after the payment finished.
  'cancel.in-progress-fails': { ...e(['cancel'], ['sandbox.cancel-race', W]), args: ['--sim-step-delay', '200ms'] },
  'transaction.client-id-dropped': e(['payment'], ['sandbox.client-transaction-id', W]),
  'terminal.offline-picks-up': e(['cancel'], ['sandbox.waiting-status', W]),
  'webhook.no-retry': e(['webhooks'], ['webhook.retried', W]),
};

/** Legal but unusual behaviour: the suites that would notice it, run clean. */
export const LEGAL: Record<string, string[]> = {
  'webhook.duplicate': ['payment', 'webhooks'],
  'webhook.out-of-order': ['payment', 'webhooks'],
  slow: ['cancel'],
  'cancel.race-success': ['cancel'],
  'token.short-lived': ['auth'],
};

/**
 * Checks no fault switch can show firing, with the reason. Everything else must appear in BREAKS.
 */
export const NOT_FAULT_DRIVEN: Record<string, string> = {};
