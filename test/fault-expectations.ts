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
  /** The check of the finding that must lead the summary: the root cause named first. */
  first?: string;
}

const F = 'failure' as const;
const W = 'warning' as const;
const e = (suites: string[], ...expect: [string, 'failure' | 'warning'][]): FaultExpectation => ({
  suites,
  expect: expect.map(([check, severity]) => ({ check, severity })),
});

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
  'generate.server-error': e(
    ['payment', 'properties'],
    ['request.accepted', F],
    ['request.valid-accepted', W],
    ['response.status-documented', W],
  ),
  'generate.missing-transaction-id': e(['payment'], ['response.schema', F]),
  'operation.missing-operation-id': e(['preauth'], ['response.schema', F]),
  'auth.bearer-not-enforced': e(['auth'], ['auth.bearer-required', F], ['auth.refused-401', W]),
  'auth.invalid-token-accepted': e(['auth'], ['auth.invalid-token-refused', F], ['auth.refused-401', W]),
  'auth.integrator-not-enforced': e(
    ['auth'],
    ['auth.integrator-required', F],
    ['auth.integrator-missing-400', W],
    ['auth.other-integrator-refused', W],
  ),
  'auth.token-requires-integrator': e(['auth'], ['auth.token-without-integrator', F]),
  'auth.unpair-not-revoking': e(['pairing'], ['auth.revoked-after-unpair', W]),
  'transition.final-changes': e(['payment'], ['transition.legal', W]),
  'transaction.never-converges': { ...e(['payment'], ['convergence.deadline', F]), args: ['--deadline', '3s'] },
  // No valid delivery ever arrives: the service sends no webhook the pairing's key verifies (spec#events).
  'webhook.unsigned': {
    ...e(['payment'], ['webhook.signature', W], ['webhook.service-sends', F]),
    args: ['--deadline', '3s'],
    first: 'webhook.service-sends',
  },
  'webhook.bad-signature': {
    ...e(['payment'], ['webhook.signature', W], ['webhook.service-sends', F]),
    args: ['--deadline', '3s'],
    first: 'webhook.service-sends',
  },
  'webhook.disagrees-with-polling': e(['webhooks'], ['webhook.agrees-with-polling', F]),
  'webhook.bad-schema': e(['webhooks'], ['webhook.schema', W]),
  'webhook.none': {
    ...e(['webhooks'], ['webhook.service-sends', F], ['webhook.delivered', W], ['webhook.every-status-posted', W]),
    args: ['--deadline', '3s'],
    first: 'webhook.service-sends',
  },
  'isolation.leak': e(['isolation'], ['isolation.foreign-id', W]),
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
  'config.other-terminal-id': e(['config'], ['pairing.terminal-matches-config', F]),
  'slip.wrong-transaction-id': e(['print-slip'], ['print-slip.transaction-id', F]),
  'slip.wrong-terminal-id': e(['print-slip'], ['print-slip.terminal-id', F]),
  'operation.wrong-transaction-id': e(['preauth'], ['operation.reference-transaction-id', F]),
  'webhook.data-tip-mismatch': e(['payment'], ['webhook.data-matches-record', W]),
  // Tokens die 0.3 s after issue while expires_in says 3600: the requests of later tests meet the 401.
  // The token's lifetime is the root (a warning); the refused requests' own rules are not judged.
  'token.dies-early': e(['payment'], ['auth.token-lifetime-honoured', W]),
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
  // The operation never looks final: the status outside the enum is the root, the missed deadline follows.
  'operation.status-outside-enum': { ...e(['preauth'], ['response.enum', W], ['convergence.deadline', W]), args: ['--deadline', '3s'] },
  'webhook.signed-other-bytes': {
    ...e(['payment'], ['webhook.signature', W], ['webhook.service-sends', F]),
    args: ['--deadline', '3s'],
    first: 'webhook.service-sends',
  },
  'token.refused': e(['config'], ['auth.token-obtained', F]),
};

/**
 * The scenarios in which each fault's checks fire (read off full-suite runs), so a fault run executes
 * only those: `--grep` with the names as a regular expression. A renamed scenario makes its fault's
 * expectation fail loudly rather than pass by accident. Faults whose scenarios depend on an earlier
 * scenario of their suite (isolation's setup, pairing's second pairing) run the whole suite.
 * transition.final-changes needs one approval: its SUCCESS lasts one terminal step, which polling may
 * miss (IN_PROGRESS -> FAILED is legal), but its webhook and FAILED's are both posted.
 */
export const SCENARIOS: Record<string, string> = {
  'slip.bad-digital-slip-uri': 'print slip of a SUCCESS transaction',
  'slip.missing-digital-slip': 'print slip of a SUCCESS transaction',
  'slip.bad-created-at': 'print slip of a SUCCESS transaction',
  'slip.amount-as-string': 'print slip of a SUCCESS transaction',
  'slip.total-mismatch': 'print slip of a SUCCESS transaction',
  'slip.bad-country': 'print slip of a SUCCESS transaction',
  'slip.bad-currency': 'print slip of a SUCCESS transaction',
  'slip.status-outside-enum': 'print slip of a SUCCESS transaction',
  'slip.bad-payment-method': 'print slip of a SUCCESS transaction',
  'slip.currency-disagrees-config': 'print slip of a SUCCESS transaction',
  'slip.bad-tag': 'print slip of a SUCCESS transaction',
  'slip.nonfinal-200': 'print slip while INITIATED answers 400',
  'config.missing-payment-methods': 'the configuration: fields, payment methods with CARD, the sandbox values',
  'pair.missing-webhook-key': 'pair with a fresh OTP and a webhook_url: every field, working credentials',
  'token.type-lowercase': 'client credentials give a token \\(type Bearer, scope default\\) without the integrator header, and it works',
  'token.expires-in-number': 'client credentials give a token \\(type Bearer, scope default\\) without the integrator header, and it works',
  'pair.name-not-echoed': 'pair with a fresh OTP and a webhook_url: every field, working credentials',
  'pair.otp-reuse': 'the OTP is one-time: a consumed OTP does not pair again',
  'generate.missing-transaction-id': 'generate and converge: approve',
  'operation.missing-operation-id': 'increment \\(success, 51 FAILED, 53 EXPIRED\\) then complete with the exact sum',
  'auth.bearer-not-enforced': 'cancelTransaction: without a bearer token|getConfig: without a bearer token',
  'auth.invalid-token-accepted': 'cancelTransaction: with an invalid bearer token|getConfig: with an invalid bearer token',
  'generate.server-error':
    'generateTransaction: invalid bodies get a 4xx|generateTransaction: valid bodies are accepted|linkedRefund: invalid bodies on a prepared id get a 4xx',
  'auth.integrator-not-enforced':
    'cancelTransaction: without the integrator header|getConfig: with another integrator id|getConfig: without the integrator header',
  'auth.unpair-not-revoking': 'unpair revokes: the old token is refused and the client credentials obtain no token',
  'auth.token-requires-integrator':
    'client credentials give a token \\(type Bearer, scope default\\) without the integrator header, and it works',
  'transaction.never-converges': 'generate and converge: approve',
  'transition.final-changes': 'generate and converge: approve',
  'webhook.disagrees-with-polling': 'signed deliveries post every status change: approve',
  'webhook.bad-schema': 'signed deliveries post every status change: approve',
  'content-type.text-plain': 'the configuration: fields, payment methods with CARD, the sandbox values',
  'webhook.unsigned': 'generate and converge: approve',
  'webhook.bad-signature': 'generate and converge: approve',
  'error.non-json': 'print slip while INITIATED answers 400',
  'webhook.none': 'signed deliveries post every status change: approve',
  'cancel.final-accepted': 'cancel of a final transaction \\(approve\\) answers 400 and changes nothing',
  'generate.accepts-zero-amount': 'generate refuses amount 0 with 400 and starts nothing',
  'busy.no-409': 'a second generate while a transaction is pending answers 409',
  'preauth.increment-after-complete-succeeds': 'after completion, increment and complete answer 200 and their operations fail',
  'auth.credentials-survive-unpair': 'unpair revokes: the old token is refused and the client credentials obtain no token',
  'tip.ignored': 'generate and converge: tip',
  'auth.any-secret-accepted': 'a wrong client_secret obtains no token',
  'config.no-card': 'the configuration: fields, payment methods with CARD, the sandbox values',
  'token.expires-early': 'the token is renewed when it runs out: bearer calls over more than 2 s keep working',
  'config.wrong-timezone': 'the configuration: fields, payment methods with CARD, the sandbox values',
  'auth.token-refuses-integrator': 'the token endpoint also works with the integrator header',
  'generate.unknown-method-accepted': "a payment_method that is not among the configuration's is refused with 400",
  'generate.listed-method-refused': "each configured payment method's id is accepted as generate's payment_method",
  'generate.payment-method-ignored':
    "each configured payment method's id is accepted as generate's payment_method|generate with a payment_method of the configuration: the record keeps it",
  'operation.wrong-type': 'increment \\(success, 51 FAILED, 53 EXPIRED\\) then complete with the exact sum',
  'pair.bad-otp-accepted': 'a malformed or never-valid OTP is refused: five digits',
  'pair.bad-otp-401': 'a malformed or never-valid OTP is refused: five digits',
  'config.other-terminal-id': 'the configuration: fields, payment methods with CARD, the sandbox values',
  'slip.wrong-transaction-id': 'print slip of a SUCCESS transaction',
  'slip.wrong-terminal-id': 'print slip of a SUCCESS transaction',
  'operation.wrong-transaction-id': 'increment \\(success, 51 FAILED, 53 EXPIRED\\) then complete with the exact sum',
  'webhook.data-tip-mismatch': 'generate and converge: tip',
  'unpair.refused': 'pair with a fresh OTP and a webhook_url: every field, working credentials',
  'preauth.ops-on-any-transaction': 'increment and complete of a plain charge answer 400',
  'preauth.complete-keeps-amount': 'increment \\(success, 51 FAILED, 53 EXPIRED\\) then complete with the exact sum',
  'refund.non-success-accepted': 'linked refund of a transaction that is not SUCCESS answers 400',
  'slip.unsuccessful-final-400': 'generate and converge: decline',
  'refund.tagged-charge': 'linked refund: at most the unrefunded remainder, grows refund_total_amount, tagged refund',
  'refund.total-unchanged': 'linked refund: at most the unrefunded remainder, grows refund_total_amount, tagged refund',
  'refund.above-remainder-accepted': 'linked refund: at most the unrefunded remainder, grows refund_total_amount, tagged refund',
  'revert.older-accepted': 'revert: only the most recent SUCCESS; it ends REVERTED with reverted_at',
  'revert.no-reverted-at': 'revert: only the most recent SUCCESS; it ends REVERTED with reverted_at',
  'cancel.final-stamps-canceled-at': 'cancel of a final transaction \\(approve\\) answers 400 and changes nothing',
  'transaction.client-id-dropped': 'generate and converge: approve',
  'terminal.offline-picks-up': 'cancel while INITIATED \\(55, terminal offline\\) ends CANCELED',
  'cancel.in-progress-fails': 'cancel while IN_PROGRESS races the terminal: CANCELED or SUCCESS, polling and webhook agree',
  'webhook.no-retry': 'a delivery answered 500 is retried \\(receiver fails 2 deliveries\\)',
  'operation.status-outside-enum': 'increment \\(success, 51 FAILED, 53 EXPIRED\\) then complete with the exact sum',
  'webhook.signed-other-bytes': 'generate and converge: approve',
  'token.refused': 'the configuration: fields, payment methods with CARD, the sandbox values',
};

/** Legal but unusual behaviour: the suites that would notice it, run clean. */
export const LEGAL: Record<string, string[]> = {
  'webhook.duplicate': ['payment', 'webhooks'],
  'webhook.out-of-order': ['payment', 'webhooks'],
  slow: ['cancel'],
  'cancel.race-success': ['cancel'],
  'token.short-lived': ['auth'],
  // Polls to convergence, unknown-id probes (once 404 was expected, 429 came) and the cancel race
  // (its status reads decide between 400 expected and a failed cancel).
  'poll.rate-limited': ['payment', 'cancel', 'isolation'],
};

/**
 * Legal faults a clean run must still show in a summary count (counted, not filed): the summary
 * field that must be above 0.
 */
export const LEGAL_COUNTED: Record<string, 'rateLimited'> = {
  'poll.rate-limited': 'rateLimited',
};

/** Faults run once more against the stateful suite, whose model checks must catch them too. */
export const STATEFUL: Record<string, FaultExpectation> = {
  'cancel.final-accepted': { ...e(['stateful'], ['model.answer', W]), args: ['--seed', '1'] },
  'transition.final-changes': { ...e(['stateful'], ['model.final-state', W]), args: ['--seed', '1'] },
};

/** Checks shown firing by another self-test (the file named), not by the tables above. */
export const SHOWN_ELSEWHERE: Record<string, string> = {
  'model.operation-outcome': 'test/stateful.test.ts (preauth.increment-after-complete-succeeds, shrunk and replayed)',
  'model.counterexample': 'test/stateful.test.ts',
  'request.answered': 'test/robustness.test.ts (the simulator process is killed mid-run)',
  'response.time-within-limit': 'test/slow-service.test.ts (opt-in: --max-response-time under a front that delays pairing answers)',
};
