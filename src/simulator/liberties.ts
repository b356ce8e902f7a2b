/**
 * The catalogue of the liberal sandbox (`sim --liberal`, the `liberal` option): every liberty the
 * three documents leave open that the liberal mode takes, as data. Each one names what it does and
 * the silence it uses: the sentence(s) of pay-connect-spec.md, public-profile.md or sandbox.md that
 * leave it open (quoted verbatim; liberties.test.ts finds each quote in contracts/spec/), or the topic
 * no document addresses. A liberty never breaks a sentence of the three documents: the liberal
 * sandbox must pass the harness with `--strict` and 0 findings. liberal.ts implements them.
 */

/** Where a quote is from. */
export type LibertyDoc = 'spec' | 'profile' | 'sandbox';

/** A sentence (or a sentence's part) of one of the documents, verbatim. */
export interface LibertyQuote {
  readonly doc: LibertyDoc;
  readonly text: string;
}

/** One liberty of the liberal sandbox. */
export interface Liberty {
  readonly id: string;
  /** What the liberal sandbox does. */
  readonly does: string;
  /** The sentences that leave it open (verbatim), possibly none when `topic` says no document addresses it. */
  readonly quotes: readonly LibertyQuote[];
  /** The silence in words: what the documents say, or which topic none of them addresses. */
  readonly silence: string;
}

const q = (doc: LibertyDoc, text: string): LibertyQuote => ({ doc, text });
const l = (id: string, does: string, silence: string, ...quotes: LibertyQuote[]) => ({ id, does, silence, quotes }) as const;

/** Every liberty of the liberal sandbox. */
export const LIBERTIES = [
  l(
    'pair.webhook-url-any-string',
    'a pairing with any string as webhook_url (empty, not a URL, an unusual scheme) is accepted ' +
      'and gets a non-empty webhook_secret_key; deliveries to it are attempted (they fail, and are ' +
      'retried on the schedule)',
    'webhook_url is a string and optional; sandbox.md refuses only consumed, malformed or never-valid OTPs; no document gives a URL syntax',
    q('spec', '`webhook_url` (string, the address that receives webhooks)'),
    q('profile', 'pairing `name` and `otp` (`webhook_url` optional)'),
    q('sandbox', 'A consumed,\n  malformed or never-valid OTP answers 400.'),
    q('sandbox', '`webhook_secret_key` is a non-empty string when `webhook_url` was given'),
  ),
  l(
    'pair.name-any-string',
    'a pairing with an empty (or any other) string as name is accepted, and pay_connect_name echoes it',
    'name is a required string; no document gives it a length or a syntax',
    q('spec', '`name` (string)'),
    q('profile', 'pairing `name` and `otp` (`webhook_url` optional)'),
    q('profile', 'field lengths'),
  ),
  l(
    'request.unknown-fields-ignored',
    'unknown fields in any request body are ignored (the default simulator does the same)',
    'the documents list the fields of each body and refuse none for an extra field',
    q(
      'spec',
      'Which body fields are required for pairing, generate and the preauthorization operations, ' +
        'and the allowed values of `payment_method` in generate: not shown.',
    ),
  ),
  l(
    'timing.slow-answers',
    'answers after a delay of its own: a successful pairing after 1 to 1.6 s, a configuration, ' +
      'token, print slip or a started transaction or operation after 100 to 400 ms, other answers after up to 60 ms',
    'no document sets a time limit on an answer',
    q('spec', 'Rate limits, size limits, time-outs and OTP validity: not shown.'),
  ),
  l(
    'json.key-order',
    "the keys of every JSON answer come in an order of its own (reversed, and rotated per answer), never the default's",
    'only webhook bodies have their keys sorted; no document orders the keys of an answer',
    q('spec', 'Bodies are JSON (`application/json`).'),
  ),
  l(
    'json.whitespace',
    'JSON answers are indented (two spaces, a newline at the end) rather than compact',
    'no document addresses the whitespace of an answer',
    q('spec', 'Bodies are JSON (`application/json`).'),
  ),
  l(
    'json.unicode-escapes',
    'every non-ASCII character and every "/" of a JSON string is written as an escape (\\u00e1, \\/): the same string',
    'no document addresses how strings are escaped',
    q('spec', 'Bodies are JSON (`application/json`).'),
  ),
  l(
    'json.number-forms',
    'integers are written with a zero fraction (1250.0), the same JSON number value, an integer for JSON Schema',
    'the documents say integer, a value; no document addresses how a number is spelt',
    q('spec', 'Monetary amounts that are described in the interface are integers in cents.'),
  ),
  l(
    'headers.extra',
    'answers carry headers of their own (x-request-id, server, vary, a content-type with charset=utf-8) and no cache-control',
    'the documents name only the integrator and Authorization headers of requests; no document addresses other headers of an answer',
    q('spec', 'Bodies are JSON (`application/json`).'),
  ),
  l(
    'errors.extra-fields',
    'error bodies carry more than detail: title, status, code and request_id',
    'sandbox.md requires the detail field, and says nothing against others; the spec shows no error body',
    q('spec', 'Error body format: not shown.'),
    q('sandbox', 'Every 4xx and 5xx answer carries a JSON body `{"detail": "<human-readable reason>"}`.'),
  ),
  l(
    'errors.www-authenticate-params',
    'a 401 carries WWW-Authenticate with a realm and an error parameter (Bearer realm="pay-connect", error="invalid_token")',
    'no document addresses the WWW-Authenticate header',
    q('spec', 'The scheme is HTTP bearer.'),
  ),
  l(
    'records.extra-fields',
    'answers carry fields of their own beside the documented ones: the pairing result (paired_at), ' +
      'the token result (issued_at), the status record and webhook data (updated_at, object), the ' +
      'print slip (receipt_number), the operation record (object, and a currency in its metadata), ' +
      'operation references and created transactions (object), the cancel answer (transaction_id, cancel_requested)',
    'the documents list the fields an answer has; none says an answer has no others',
    q('spec', 'Fields of the transaction record other than the print slip view: not shown.'),
    q('spec', 'All others are optional.'),
    q('spec', 'Response 200: no fields are listed.'),
    q('profile', 'JSON with at least `status` (the rest of the schema is not published)'),
    q('profile', '`operation_id`, `operation_type`, `transaction_id`, `status` (all required), optional `metadata`'),
  ),
  l(
    'records.optional-absent',
    'optional fields are left out when they have no value instead of being null: the card fields ' +
      'of a status record or print slip of a payment that is not an approved card payment, and completed_at, ' +
      'canceled_at, reverted_at, refund_total_amount of a print slip',
    "the print slip's fields beyond the required ones are optional; sandbox.md lists the status " +
      "record's fields, and the card fields only for approved card payments",
    q(
      'spec',
      'Required fields: transaction_id, terminal_id, organization, point_of_sale, amount, tip_amount, ' +
        'total_amount, currency, status, payment_method, tags, timezone, created_at, digital_slip. All ' +
        'others are optional.',
    ),
    q(
      'sandbox',
      'Approved card payments carry `payment_option` (`VISA` or `MASTERCARD`), `card_number` masked ' +
        'as\n  `**** **** **** 1234`, `card_tid`, `aid`, `approve_code` and `card_type`.',
    ),
  ),
  l(
    'clock.offset',
    "its clock runs 37 s ahead of the machine's: every timestamp it writes, and the time tokens expire by",
    "no document addresses the service's clock",
    q('spec', '| created_at | string, date-time (ISO 8601) | yes | Creation time |'),
  ),
  l(
    'clock.local-time',
    "timestamps are written in the point of sale's local time (Europe/Ljubljana) with its UTC offset and milliseconds, e.g. 2026-11-28T06:12:03.417+01:00",
    "the spec asks for ISO 8601 date-times; the public profile describes the samples' form, not a rule",
    q('spec', '| created_at | string, date-time (ISO 8601) | yes | Creation time |'),
    q('profile', 'Timestamps in samples are ISO 8601 UTC with second precision (`2023-11-07T05:31:56Z`).'),
  ),
  l(
    'ids.own-format',
    'ids of its own form, not UUIDs: transactions tx:<base32> (a colon, which a path may carry ' +
      'as it is or percent-encoded), operations op-<base32>, pairings pc_<digits>, terminals TRM-<digits>, ' +
      'client ids cli.<hex>, event ids evt_<base32>',
    'every id is a string; no document gives an id a syntax',
    q('spec', '| pay_connect_id | string | Unique Pay-Connect ID |'),
    q('sandbox', '`{"data": <record>, "event": "<kind>.<status in lower case>", "event_id": "<unique id>"}`'),
  ),
  l(
    'credentials.own-format',
    'access tokens with the characters of RFC 6750 b64token (letters, digits, ".", "~", "+", "/" ' +
      'and "=" padding), client secrets with punctuation, webhook secret keys with non-ASCII letters (keyed as UTF-8)',
    'the token and secrets are strings; the webhook key is used as UTF-8',
    q('spec', '| access_token | string | Bearer token |'),
    q('profile', 'keyed with\n  `webhook_secret_key` (UTF-8)'),
  ),
  l(
    'payment.method-chosen-late',
    'a payment started without payment_method keeps payment_method null in its status record while ' +
      'IN_PROGRESS: the virtual customer picks CARD as the payment ends',
    "the record's payment_method is null until chosen; when the customer chooses is not said",
    q('sandbox', '`payment_method` (null until chosen)'),
    q('sandbox', "Without\n`payment_method` the virtual terminal's customer picks `CARD`."),
  ),
  l(
    'slip.own-digital-slip',
    "the print slip's digital_slip is a URL of its own, on another host, with a query string",
    'digital_slip is a URI; its value is omitted in the spec',
    q('spec', '| digital_slip | string, uri | yes | URL of the PDF print slip. A default value is declared; its value is omitted here |'),
  ),
  l(
    'config.own-values',
    'the configuration has a version and default language of its own (2026.11-liberal, sl-SI) and group ids and names of its own',
    'sandbox.md fixes currency, timezone and CARD only',
    q(
      'sandbox',
      '`GET /v1/pay-connect/config/` answers currency `EUR`, timezone `Europe/Ljubljana`, a default ' +
        'language,\na version string, and payment methods that include `CARD`.',
    ),
  ),
  l(
    'terminal.jittered-steps',
    'each terminal step (pick up, finish, cancel signal, operation step) comes after a delay drawn from half to all of the step delay',
    "the delay is the sandbox's choice",
    q('sandbox', "each step after a\n  short delay of the sandbox's choosing"),
  ),
  l(
    'cancel.race-success',
    'every second approving payment canceled while IN_PROGRESS completes SUCCESS instead of CANCELED',
    'sandbox.md makes that race legal',
    q('sandbox', 'A normal transaction canceled while `IN_PROGRESS` may reach\n  `CANCELED` or `SUCCESS`: that race is legal.'),
  ),
  l(
    'keep-alive.unannounced-close',
    'an idle connection is closed after 1.5 s without a Keep-Alive header announcing it (unless --keep-alive is given)',
    'no document addresses connection reuse or time-outs',
    q('spec', 'Rate limits, size limits, time-outs and OTP validity: not shown.'),
  ),
  l(
    'http.chunked-answers',
    'every other answer with a body is sent with chunked transfer encoding instead of a content-length',
    'no document addresses how an answer is framed',
    q('spec', 'Bodies are JSON (`application/json`).'),
  ),
  l(
    'limits.poll-rate',
    'status and operation reads past 6 a second of one pairing answer 429 with Retry-After: 1 (and the error body)',
    'no rate limit is shown, and statuses other than the listed ones are unknown',
    q('spec', 'Rate limits, size limits, time-outs and OTP validity: not shown.'),
    q('profile', 'status codes other than those listed; rate limits'),
  ),
  l(
    'token.short-lifetime',
    'tokens live 30 s (expires_in "30", a decimal string of seconds, and honoured) unless a lifetime is given',
    'the lifetime is the sandbox\'s setting ("3600" is its default, not a rule of the service); the value is unknown',
    q('sandbox', '`expires_in` is a decimal string of seconds (`"3600"` by default).'),
    q('profile', 'token lifetime value'),
  ),
  l(
    'config.more-methods',
    "the configuration also offers TWINT and VALU (values of the spec's enum), which generate accepts; they carry no card data",
    'sandbox.md asks only that the methods include CARD and that an id is what generate takes',
    q('sandbox', 'payment methods that include `CARD`'),
    q('sandbox', "A payment method's `id` is the value that\n`payment_method` takes in generate"),
  ),
  l(
    'transaction.client-id-idempotent',
    'a generate, preauth or independent refund that repeats an earlier one of the pairing (same ' +
      'amount, client_transaction_id and payment_method) answers 200 with the earlier transaction_id ' +
      'and starts nothing (a busy terminal still answers 409)',
    'whether client_transaction_id is idempotent is unknown',
    q('profile', 'whether\n`client_transaction_id` is idempotent'),
  ),
  l(
    'keep-alive.close-some',
    'every fifth answer closes its connection (Connection: close)',
    'no document addresses connection reuse',
    q('spec', 'Rate limits, size limits, time-outs and OTP validity: not shown.'),
  ),
  l(
    'webhook.no-creation-events',
    'the creation of a transaction or an operation is not posted (no transaction.initiated, no operation.initiated)',
    'posting the creation is allowed, not required',
    q('sandbox', 'A\n  sandbox may also post the creation itself (`transaction.initiated`, `operation.initiated`).'),
  ),
  l(
    'webhook.duplicates',
    'about one delivery in three is sent twice, with the same event_id',
    'sandbox.md allows it',
    q('sandbox', 'Delivery is at\n  least once: the same `event_id` may arrive more than once'),
  ),
  l(
    'webhook.out-of-order',
    'deliveries of one pairing are not sent in order: each waits a random delay of its own first',
    'sandbox.md allows it',
    q('sandbox', 'events may arrive out of order.'),
  ),
  l(
    'webhook.late',
    'each delivery leaves 150 ms to 1.5 s after the status change it reports',
    'no document sets when a webhook is sent',
    q('spec', 'Delivery and retry behaviour: not shown.'),
  ),
  l(
    'webhook.own-bytes',
    'webhook bodies keep their keys sorted but are written with spaces after ":" and "," and with ' +
      'escaped non-ASCII characters; the signature covers those exact bytes',
    'only sorted keys are required; the receiver verifies the bytes it received',
    q(
      'profile',
      'The sender serialises the JSON with sorted keys; a receiver must verify\n  the raw bytes it received, never a re-serialised object.',
    ),
    q('sandbox', 'Body: a JSON object, keys sorted at every level'),
  ),
  l(
    'webhook.extra-headers',
    'deliveries carry headers of their own (user-agent, x-pay-connect-delivery, a content-type with charset=utf-8) beside Signature',
    'only the Signature header is named',
    q('profile', 'Signature: header `Signature`, lowercase hex HMAC-SHA256 of the exact request body bytes'),
  ),
] as const satisfies readonly Liberty[];

/** The id of a liberty. */
export type LibertyId = (typeof LIBERTIES)[number]['id'];
