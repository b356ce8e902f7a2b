/**
 * The sentences each rule enforces, verbatim from the documents the toolkit is held to
 * (pay-connect-spec.md, public-profile.md, sandbox.md; bundled in contracts/spec/): a rule's clause is
 * the heading its first sentence is under (or a heading above it). A table row of a document counts as
 * its sentence. The reports show a finding's quote beside its clause; docs/rules.md lists them;
 * rule-quotes.test.ts finds every one in the documents (only white space and line breaks normalised).
 *
 * A rule no sentence supports is an assumption of ours, not a requirement: it is named in
 * {@link RULE_ASSUMPTIONS} with what it assumes, is never a failure without --strict, and docs/rules.md
 * lists it apart.
 */

/** Sentences several rules rest on. */
export const SENTENCE = {
  /** pay-connect-spec.md, the title's section. */
  bodiesJson: 'Bodies are JSON (`application/json`).',
  trailingSlash: 'Every path ends with a trailing slash.',
  overHttp: 'The service lets a software application communicate with a payment terminal over HTTP.',
  confirmedAfterwards:
    'Changes of state happen on the terminal, so the result of a request is confirmed afterwards by polling or by webhook.',
  integratorHeader:
    'Header `X-Pay-Connect-Integrator-Id` (string) carries the integrator ID. It is required on every endpoint below except the token endpoint.',
  bearerHeader: '`Authorization: Bearer <ACCESS_TOKEN>` is required on every endpoint except the token and pairing endpoints.',
  authRequired: 'Authentication is required for every request except pairing.',
  bearerScheme: 'The scheme is HTTP bearer. Requests carry `Authorization: Bearer <ACCESS_TOKEN>`.',
  credentialsExchanged:
    'Credentials come from pairing: `client_id` and `client_secret`. They are exchanged at POST /v1/auth/token/ with `grant_type` set to `client_credentials`.',
  tokenBody: 'Request body: `grant_type` (string, `client_credentials`), `client_id` (string), `client_secret` (string).',
  pairBody: 'Request body: `name` (string), `otp` (string), `webhook_url` (string, the address that receives webhooks).',
  generateBody: "Request body: `amount` (integer), `client_transaction_id` (string, the caller's own ID), `payment_method` (string).",
  webhookKeyVerifies: 'The pairing result carries `webhook_secret_key`, which is used to verify the webhook signature.',
  confirmedByWebhookOrPolling: 'Status changes of transactions and operations can be confirmed by webhook or by polling.',
  slipRequired:
    'Required fields: transaction_id, terminal_id, organization, point_of_sale, amount, tip_amount, ' +
    'total_amount, currency, status, payment_method, tags, timezone, created_at, digital_slip. All ' +
    'others are optional.',
  statusValues:
    'The transaction `status` takes one of these values: INITIATED, IN_PROGRESS, SUCCESS, CANCELED, DECLINED, REVERTED, EXPIRED, FAILED.',
  /** public-profile.md. */
  requiredBodyFields:
    'Required body fields in the public reference: pairing `name` and `otp` (`webhook_url` optional); ' +
    'generate `amount` (`client_transaction_id` and `payment_method` optional; without a payment ' +
    'method the terminal shows a picker); preauth operations `amount`; token `grant_type`, `client_id`, `client_secret`.',
  operationDetailsRow:
    '| Operation details (polling) | GET `/v1/pay-connect/transaction-operations/{operation_id}/` ' +
    '| none | `operation_id`, `operation_type`, `transaction_id`, `status` (all required), optional `metadata` |',
  operationTypes: '`operation_type` values: `transaction.revert`, `transaction.preauth.increment`, `transaction.preauth.complete`.',
  signatureScheme:
    'Signature: header `Signature`, lowercase hex HMAC-SHA256 of the exact request body bytes, keyed with `webhook_secret_key` (UTF-8).',
  rawBytes:
    'The sender serialises the JSON with sorted keys; a receiver must verify the raw bytes it received, never a re-serialised object.',
  receiverAnswers:
    'Receiver answers: 200 accepted; 400 bad payload (retried); 403 signature check failed; 500 temporary failure (retried).',
  retries: 'Retries: 5 retries after the first attempt, with back-off 5 s, 10 s, 20 s, 40 s, 80 s.',
  /** sandbox.md. */
  otpShape: 'An OTP is six digits. `000000` is never valid.',
  otpRefused: 'A consumed, malformed or never-valid OTP answers 400.',
  ownTerminal:
    'Any other six-digit OTP is valid exactly once: it pairs a fresh virtual terminal with its own `terminal_id`, credentials and webhook secret.',
  integratorBound:
    'The integrator id of the pairing request is bound to the pairing. Any later request of that ' +
    'pairing with a missing integrator header answers 400; with another integrator id, 401.',
  unpairRevokes:
    '`POST /v1/pay-connect/unpair/` revokes the pairing: its tokens answer 401 from then on, and its client credentials no longer obtain a token (400 or 401).',
  expiresIn: '`expires_in` is a decimal string of seconds (`"3600"` by default).',
  tokenRefused401: 'A missing, unknown, expired or revoked bearer token answers 401.',
  sandboxConfig:
    '`GET /v1/pay-connect/config/` answers currency `EUR`, timezone `Europe/Ljubljana`, a default ' +
    'language, a version string, and payment methods that include `CARD`.',
  paymentMethodIds:
    "A payment method's `id` is the value that `payment_method` takes in generate; a value that is not among them answers 400.",
  customerPicksCard: "Without `payment_method` the virtual terminal's customer picks `CARD`.",
  amountRange:
    '`amount` is an integer from 1 to 99,999,999 cents; anything else (missing, zero, negative, a fraction, a string) answers 400.',
  clientTransactionId: '`client_transaction_id` is optional and echoed back.',
  oneAtATime:
    'One transaction at a time per terminal: generate, preauth or a refund while another transaction ' +
    'of the same terminal is `INITIATED` or `IN_PROGRESS` answers 409.',
  picksUp:
    'The virtual terminal picks the transaction up (`IN_PROGRESS`) and then finishes it, each step ' +
    "after a short delay of the sandbox's choosing (at most 1 s in the embedded simulator's default settings).",
  outcomeTable: 'The outcome is chosen by the last two digits of the amount (`amount % 100`):',
  cancelAnswers:
    'Cancel: answers 200 while the transaction is `INITIATED` or `IN_PROGRESS`; the transaction then reaches `CANCELED` (for 56, `SUCCESS`).',
  cancelRace: 'A normal transaction canceled while `IN_PROGRESS` may reach `CANCELED` or `SUCCESS`: that race is legal.',
  cancelFinal: 'Cancel of a transaction already final answers 400 and changes nothing.',
  preauthOnly:
    'Increment and complete answer 200 with an operation reference for a successful preauthorization. ' +
    'For any other transaction of the pairing (a plain charge, a failed one) they answer 400.',
  operationOutcome:
    'An operation goes `INITIATED` → `IN_PROGRESS` → `SUCCESS`, `FAILED` or `EXPIRED`. Its outcome ' +
    "is chosen by the operation's `amount % 100`: 51 gives `FAILED`, 53 gives `EXPIRED`, anything " +
    'else `SUCCESS`, with these rules on top:',
  statusRecord:
    '`GET /v1/pay-connect/transactions/{transaction_id}/status/` answers the transaction record: ' +
    '`transaction_id`, `client_transaction_id`, `status`, `amount`, `tip_amount`, `total_amount`, ' +
    '`currency`, `payment_method` (null until chosen), `tags`, `created_at`, `completed_at`, `canceled_at`, ' +
    '`reverted_at`, `refund_total_amount`.',
  slipFinal: 'The print slip answers 200 for a transaction in a final state, and 400 while it is `INITIATED` or `IN_PROGRESS`.',
  linkedRefund: 'Linked refund: only for a `SUCCESS` transaction, `amount` at most what is left unrefunded (otherwise 400).',
  everyStatusPosted: "Every status change of a transaction or an operation is posted to the pairing's `webhook_url`.",
  atLeastOnce: 'Delivery is at least once: the same `event_id` may arrive more than once, and events may arrive out of order.',
} as const;

const S = SENTENCE;

/**
 * The row of public-profile.md's table that gives each endpoint the spec refers to but does not show
 * (its path, request and 200 answer), by the contract's operationId: what such an endpoint's answer is
 * held to, at the profile's weight.
 */
export const PROFILE_ENDPOINT_ROWS: Readonly<Record<string, string>> = {
  getTransactionStatus:
    '| Transaction status (polling) | GET `/v1/pay-connect/transactions/{transaction_id}/status/` ' +
    '| none | JSON with at least `status` (the rest of the schema is not published) |',
  getOperation: S.operationDetailsRow,
  unpair: '| Unpair | POST `/v1/pay-connect/unpair/` | no body | no body |',
  startPreauth:
    '| Start a preauthorization | POST `/v1/pay-connect/transactions/preauth/` | `amount` (integer, ' +
    'cents, required), `client_transaction_id` (optional) | `transaction_id` |',
  revertTransaction:
    '| Revert (void) the most recent successful transaction | POST `/v1/pay-connect/transaction-operations/{transaction_id}/revert/` ' +
    '| no body | `operation_id`, `transaction_id` |',
  linkedRefund:
    '| Linked refund | POST `/v1/pay-connect/transactions/{transaction_id}/refund/` | `amount` (required) | `transaction_id` of a new refund transaction |',
  independentRefund:
    '| Independent refund | POST `/v1/pay-connect/transactions/refund/` | `amount` (required), `client_transaction_id` | `transaction_id` |',
};

/** The clause of those rows. */
export const PROFILE_ENDPOINTS = 'profile#endpoints-the-spec-refers-to-but-does-not-show';

/** Every rule's sentences, by rule id (an assumption has none: see RULE_ASSUMPTIONS). */
export const RULE_QUOTES: Readonly<Record<string, readonly string[]>> = {
  // run: the service
  'auth.bad-credentials-refused': [S.credentialsExchanged, S.authRequired],
  'auth.bearer-required': [S.authRequired, S.bearerHeader],
  'auth.credentials-revoked-after-unpair': [S.unpairRevokes],
  'auth.integrator-missing-400': [S.integratorBound],
  'auth.integrator-required': [S.integratorHeader],
  'auth.invalid-token-refused': [S.authRequired, S.bearerScheme],
  'auth.other-integrator-refused': [S.integratorBound],
  'auth.refused-401': [S.tokenRefused401],
  'auth.revoked-after-unpair': [S.unpairRevokes],
  'auth.token-lifetime-honoured': [S.expiresIn, S.tokenRefused401],
  'auth.token-obtained': [S.credentialsExchanged, 'Obtains a bearer token.'],
  'auth.token-with-integrator': ['The token endpoint works with or without the integrator header.'],
  'auth.token-without-integrator': [S.integratorHeader],
  'config.payment-method-accepted': [S.paymentMethodIds],
  'config.payment-method-applied': [S.statusRecord, S.paymentMethodIds],
  'config.payment-methods': [S.sandboxConfig],
  'config.sandbox-values': [S.sandboxConfig],
  'config.unknown-payment-method-refused': [S.paymentMethodIds],
  'convergence.deadline': [S.confirmedAfterwards],
  'errors.unknown-id': ['Unknown transaction or operation ids answer 404.'],
  'invariant.country': [
    '`organization` object: required `full_name`, `country` (ISO 3166-1 alpha-2), `address`, `postal_code`, ' +
      '`city` (all strings); optional `region` (string or null).',
  ],
  'invariant.currency': ['| currency | string | yes | ISO 4217 alpha-3 code |'],
  'invariant.total-amount': ['| total_amount | integer | yes | amount + tip_amount, in cents |'],
  'isolation.foreign-id': ["A pairing sees only its own terminal's transactions and operations."],
  'isolation.not-found': ["Another pairing's transaction or operation id answers 404, exactly like an id that does not exist."],
  'model.answer': [S.oneAtATime, S.cancelAnswers, S.cancelFinal],
  'model.counterexample': [S.outcomeTable, S.oneAtATime, S.cancelAnswers, S.cancelFinal],
  'model.final-state': [S.outcomeTable, S.cancelAnswers, S.cancelRace],
  'model.operation-outcome': [S.operationOutcome],
  'operation.record-matches': [S.operationDetailsRow, S.operationTypes],
  'pairing.bad-otp-400': [S.otpRefused, S.otpShape],
  'pairing.bad-otp-refused': [S.otpRefused, S.otpShape],
  'pairing.name-echoed': ['| pay_connect_name | string | The name supplied at pairing |'],
  'pairing.otp-one-time': [
    'It is a one-time operation.',
    'Pair with a terminal using a one-time password (OTP) and receive client credentials and a webhook secret.',
  ],
  'pairing.own-terminal': [S.ownTerminal],
  'pairing.terminal-matches-config': [
    'Pair with a terminal using a one-time password (OTP) and receive client credentials and a webhook secret.',
    'Read the terminal configuration, including its available payment methods.',
  ],
  'pairing.unique-id': ['| pay_connect_id | string | Unique Pay-Connect ID |'],
  'pairing.unpair-accepted': [PROFILE_ENDPOINT_ROWS.unpair!],
  'pairing.webhook-key': ['`webhook_secret_key` is a non-empty string when `webhook_url` was given, and `null` when it was not.'],
  'preauth.authorized-only': [S.preauthOnly],
  'preauth.completed-amount': [
    "complete with an amount above the authorized amount ends `FAILED`; a successful complete sets the transaction's `amount` to the completed amount;",
  ],
  'print-slip.agrees-with-status': [S.statusRecord, 'Returns print slip details for a completed transaction.'],
  'print-slip.transaction-id': ['Returns print slip details for a completed transaction.', 'Path: `transaction_id` (string, required).'],
  'print-slip.terminal-id': [
    'Pair with a terminal using a one-time password (OTP) and receive client credentials and a webhook secret.',
    'Start a transaction, which is sent to the terminal.',
  ],
  'operation.reference-transaction-id': ['Run preauthorization operations on a transaction: increment and complete.'],
  'webhook.data-matches-record': [
    'where kind is `transaction` (data: the status record above) or `operation` (data: the operation record).',
  ],
  'print-slip.final-available': [S.slipFinal],
  'print-slip.final-only': [S.slipFinal],
  'print-slip.matches-config': [
    "Its `organization` and `point_of_sale` come from the terminal's merchant; its `currency` and `timezone` equal the configuration's.",
  ],
  'refund.success-only': [S.linkedRefund],
  'refund.tagged': [
    'Refund (linked): only for successfully completed transactions, full or partial; it creates a new transaction tagged `refund`.',
    'Independent refund: a new transaction tagged `refund`, same outcome table.',
  ],
  'refund.total-grows': [
    'It creates a new transaction tagged `refund` that runs through the terminal like a payment ' +
      "(same outcome table on its amount); on `SUCCESS` the original's `refund_total_amount` grows.",
  ],
  'refund.within-remainder': [S.linkedRefund],
  'request.accepted': [
    'Response 200: the pairing result.',
    'Response 200: the configuration.',
    'Response 200: `transaction_id` (string).',
    'Response 200: the transaction print slip.',
    'Response 200: the operation reference.',
  ],
  'request.answered': [
    'Response 200: the pairing result.',
    'Response 200: the configuration.',
    'Response 200: `transaction_id` (string).',
    S.overHttp,
  ],
  'request.invalid-rejected': [S.amountRange, S.otpRefused, S.paymentMethodIds, S.requiredBodyFields],
  'request.valid-accepted': [S.requiredBodyFields, S.clientTransactionId],
  'response.content-type': [S.bodiesJson],
  'response.enum': [
    '| payment_method | string | yes | Enum: CARD, MBILLS, VALU, GOCRYPTO, BTC_GIFT_CARD, SMART_GIFTY, KDO4YOU, ALMA_PAY, PAYCONIQ, TWINT |',
    '| tags | array of string | yes | Each item is one of: charge, refund, overpaid, underpaid |',
    S.statusValues,
  ],
  'response.format': [
    '| created_at | string, date-time (ISO 8601) | yes | Creation time |',
    '| digital_slip | string, uri | yes | URL of the PDF print slip. A default value is declared; its value is omitted here |',
  ],
  'response.schema': [
    S.slipRequired,
    'Each `payment_methods` item has: `id` (string), `name` (string), `group` (object with `id` string and `name` string).',
  ],
  'response.status-documented': [
    '| print-slip | 400 | Bad Request |',
    '| print-slip | 401 | Unauthorized |',
    '| print-slip | 500 | Internal Server Error |',
  ],
  'revert.latest-only': ["Revert: only the terminal's most recent `SUCCESS` transaction; otherwise 400."],
  'revert.reverted': ['A successful revert operation turns the transaction `REVERTED` and sets `reverted_at`.'],
  'sandbox.busy': [S.oneAtATime],
  'sandbox.cancel-final': [S.cancelFinal],
  'sandbox.cancel-final-unchanged': [S.cancelFinal],
  'sandbox.cancel-race': [S.cancelRace],
  'sandbox.client-transaction-id': [S.clientTransactionId],
  'sandbox.operation-outcome': [
    S.operationOutcome,
    'a successful increment adds its amount to the authorized amount;',
    'once completed, any further increment or complete ends `FAILED` (the request still answers 200).',
  ],
  'sandbox.outcome': [S.outcomeTable],
  'sandbox.payment-method': [S.customerPicksCard, S.paymentMethodIds],
  'sandbox.waiting-status': [
    '| 54 | waits in `IN_PROGRESS` for a card until canceled or expired | `CANCELED` after a cancel, else `EXPIRED` |',
    '| 55 | the terminal is offline: stays `INITIATED` until canceled or expired | `CANCELED` after a cancel, else `EXPIRED` |',
  ],
  'transition.legal': [
    'Cancel: an `INITIATED` transaction is canceled at once; an `IN_PROGRESS` one gets a cancel signal on the terminal, which may still complete the payment.',
    S.picksUp,
    S.cancelFinal,
    // The statuses posted by webhook are statuses the transaction had, in any order.
    S.everyStatusPosted,
    S.atLeastOnce,
  ],
  'webhook.agrees-with-polling': [S.confirmedByWebhookOrPolling],
  'webhook.delivered': [S.everyStatusPosted],
  'webhook.every-status-posted': [S.everyStatusPosted],
  'webhook.retried': [S.retries, S.receiverAnswers, S.atLeastOnce],
  'webhook.schema': [
    'Body: a JSON object, keys sorted at every level: `{"data": <record>, "event": "<kind>.<status ' +
      'in lower case>", "event_id": "<unique id>"}` where kind is `transaction` (data: the status ' +
      'record above) or `operation` (data: the operation record).',
  ],
  'webhook.service-sends': ['The service sends webhooks. The address is supplied as `webhook_url` at pairing.'],
  'webhook.signature': [S.signatureScheme],
  // check-receiver and certify-client: the webhook endpoint
  'receiver.valid-accepted': [S.webhookKeyVerifies, S.receiverAnswers],
  'receiver.raw-bytes-verified': [S.webhookKeyVerifies, S.rawBytes],
  'receiver.unsigned-refused': [S.webhookKeyVerifies, S.receiverAnswers],
  'receiver.wrong-signature-refused': [S.webhookKeyVerifies, S.receiverAnswers],
  'receiver.other-key-refused': [S.webhookKeyVerifies, S.signatureScheme],
  'receiver.tampered-refused': [S.webhookKeyVerifies, S.signatureScheme],
  'receiver.duplicate-accepted': [S.atLeastOnce],
  'receiver.out-of-order-accepted': [S.atLeastOnce],
  'receiver.unknown-event-accepted': ['Event names: only `transaction.success` is named publicly.'],
  'receiver.malformed-refused': [S.receiverAnswers],
  // certify-client: the integrator's client
  'client.integrator-header': ['The header `X-Pay-Connect-Integrator-Id` is sent with pairing and all Pay-Connect endpoints.'],
  'client.generate-resend': [S.confirmedAfterwards],
  'client.slip-after-final': ['A print slip is retrieved for a completed transaction.'],
  'client.request-contract': [S.integratorHeader, S.bearerHeader, S.trailingSlash, S.bodiesJson],
  // check-pact: the integrator's consumer pact
  'pact.interaction-possible': [S.integratorHeader, S.bearerHeader, S.trailingSlash],
};

/** An assumption of ours: a rule no sentence of the documents states. */
export interface Assumption {
  /** Its name, as docs/rules.md lists it. */
  name: string;
  /** What we assume, and which silence of the documents it fills. */
  assumes: string;
}

/** The rules that rest on no sentence: assumptions of ours, each a warning at most (a failure only with --strict). */
export const RULE_ASSUMPTIONS: Readonly<Record<string, Assumption>> = {
  'receiver.oversized-refused': {
    name: 'receiver body limit',
    assumes:
      'a webhook endpoint bounds the body size and refuses a 2 MiB body without a 5xx; public-profile.md ' +
      'lists the receiver\'s answers, but no document states a size limit ("size limits": not shown)',
  },
  'receiver.answered-in-time': {
    name: 'receiver answer timeout',
    assumes:
      'a webhook endpoint answers within the sender\'s timeout; the documents give the retry schedule but no time-out ("time-outs": not shown)',
  },
  'client.token-reuse': {
    name: 'token reuse',
    assumes:
      'a client keeps its token until expires_in is nearly over or a 401, instead of asking for one ' +
      'per call; the documents give the lifetime (sandbox.md, Tokens) but no rule on how often a token may be requested',
  },
  'client.poll-rate': {
    name: 'poll rate',
    assumes:
      'a client polls no faster than the profile\'s minimum interval and backs off; the documents state no rate limit ("rate limits": still unknown)',
  },
  'response.time-within-limit': {
    name: 'max response time (opt-in)',
    assumes:
      'every answer comes within the limit the user gave with --max-response-time; no document sets ' +
      'a time limit ("time-outs": not shown), so the check is off unless the flag is given',
  },
  'client.busy-retry': {
    name: 'busy retry',
    assumes:
      'a client answered 409 (terminal busy, sandbox.md Transactions) waits for the running transaction ' +
      'before it starts another; no document says how a client handles the 409',
  },
};
